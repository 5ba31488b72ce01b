import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { CopyOnClick } from '../../components/CopyOnClick.tsx';

/** The recovery codes, shown once after two-factor is enabled. */
export function RecoveryCodes({ tokens, onDone }: { tokens: string[]; onDone: () => void }) {
  const { t } = useTranslation('account');
  return (
    <div>
      <p className="text-sm text-zinc-300">{t('two_factor.codes_help')}</p>
      <CopyOnClick text={tokens.join('\n')} className="mt-4 block w-full rounded-md">
        <ul
          aria-label={t('two_factor.codes_label')}
          data-testid="recovery-codes"
          className="grid grid-cols-1 gap-2 rounded-md bg-zinc-950 p-4 font-mono text-sm text-zinc-100 sm:grid-cols-2"
        >
          {tokens.map((token) => (
            <li key={token}>{token}</li>
          ))}
        </ul>
      </CopyOnClick>
      <div className="mt-6 flex justify-end">
        <Button onClick={onDone}>{t('two_factor.codes_done')}</Button>
      </div>
    </div>
  );
}
