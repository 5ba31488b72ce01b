import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { CopyOnClick } from '../../../components/CopyOnClick.tsx';

/** The startup command with the variables filled in, as the panel renders it (hidden values stay hidden). */
export function StartupCommand({
  command,
  className = '',
  children,
}: {
  command: string;
  className?: string;
  /** below the command: the choice of the egg's named commands, when it has several */
  children?: ReactNode;
}) {
  const { t } = useTranslation('startup');
  return (
    <ContentBox title={t('command_title')} className={className}>
      <CopyOnClick text={command} className="block w-full">
        <code
          data-testid="startup-command"
          className="block rounded-md border border-zinc-800 bg-zinc-950 px-3 py-2 font-mono text-sm break-all whitespace-pre-wrap text-zinc-100"
        >
          {command}
        </code>
      </CopyOnClick>
      <p className="mt-2 text-xs text-zinc-400">{t('command_hint')}</p>
      {children}
    </ContentBox>
  );
}
