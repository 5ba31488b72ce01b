import { useTranslation } from 'react-i18next';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { useServerStore } from '../store.ts';

/** Debug Information (spec 001 §2): what support asks for first, the node and the server uuid. */
export function DebugInformation() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  return (
    <ContentBox title={t('settings.debug_title')}>
      <dl className="space-y-3 text-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <dt className="text-zinc-400">{t('settings.debug_node')}</dt>
          <dd className="rounded bg-zinc-800 px-2 py-1 font-mono text-xs text-zinc-200">{server.node}</dd>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <dt className="text-zinc-400">{t('settings.debug_uuid')}</dt>
          <dd className="rounded bg-zinc-800 px-2 py-1 font-mono text-xs break-all text-zinc-200">
            {server.uuid}
          </dd>
        </div>
      </dl>
    </ContentBox>
  );
}
