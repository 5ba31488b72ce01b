import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { CopyOnClick } from '../../components/CopyOnClick.tsx';
import { Modal } from '../../components/Modal.tsx';

/** The new key (identifier followed by the secret), shown once; only the button closes it (spec §4). */
export function ApiKeyCreatedModal({ apiKey, onClose }: { apiKey: string | null; onClose: () => void }) {
  const { t } = useTranslation('account');
  return (
    <Modal visible={apiKey !== null} onDismissed={onClose} dismissable={false} title={t('api.created_title')}>
      <p className="text-sm text-zinc-300">{t('api.created_help')}</p>
      <CopyOnClick text={apiKey ?? ''} className="mt-4 block w-full rounded-md">
        <pre
          data-testid="created-api-key"
          className="rounded-md bg-zinc-950 p-3 font-mono text-sm break-all whitespace-pre-wrap text-zinc-100"
        >
          {apiKey}
        </pre>
      </CopyOnClick>
      <div className="mt-6 flex justify-end">
        <Button onClick={onClose}>{t('api.created_close')}</Button>
      </div>
    </Modal>
  );
}
