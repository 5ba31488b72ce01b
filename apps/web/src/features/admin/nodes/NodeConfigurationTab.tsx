import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NODE_SETUP_TOKEN_MINUTES } from '@talon/shared/admin/node-setup';
import {
  createNodeSetupToken,
  getNodeConfiguration,
  getNodeSetup,
  type NodeSetupToken,
} from '../../../api/application/nodes.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { CopyOnClick } from '../../../components/CopyOnClick.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { ItemLoader } from '../components/index.ts';
import { formatMoment } from '../format.ts';
import { useAdminNode } from './useAdminNode.ts';

/** Where `configure` and the daemon read the file by default (docs/daemon.md). */
const DAEMON_CONFIG_PATH = '/etc/talon/daemon.json';

/**
 * A translated sentence with its `<code>…</code>` parts shown as code. (react-i18next's Trans
 * component would add its helpers to the i18n code the sign-in page downloads too; that budget is full.)
 */
function WithCode({ text }: { text: string }) {
  return text.split(/<code>(.*?)<\/code>/u).map((part, i) =>
    i % 2 === 1 ? (
      <code key={i} className="text-zinc-100">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

const COPY = 'rounded-md bg-zinc-700 px-3 py-1.5 text-xs font-medium text-zinc-100 hover:bg-zinc-600';
const CODE =
  'overflow-x-auto rounded-md border border-zinc-800 bg-zinc-950 p-3 font-mono text-xs text-zinc-200';

/**
 * Configuration tab: the one-line setup command (a fresh single-use token each time), and the
 * daemon's configuration file itself for setting a node up by hand. The daemon reads JSON (its
 * keys are Wings' config.yml keys), so the file is shown as JSON.
 */
export function NodeConfigurationTab() {
  const { t } = useTranslation('admin');
  const node = useAdminNode();
  const configuration = useQuery({
    queryKey: ['admin', 'nodes', node.id, 'configuration'],
    queryFn: () => getNodeConfiguration(node.id),
    // It carries the node's secret: not kept around once the tab is left.
    gcTime: 0,
  });

  const setup = useQuery({
    queryKey: ['admin', 'nodes', node.id, 'setup'],
    queryFn: () => getNodeSetup(node.id),
  });

  return (
    <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-2">
      <ItemLoader query={setup}>
        {({ embedded }) =>
          embedded ? (
            <ContentBox title={t('nodes.config.embedded_title')}>
              <p className="text-sm text-zinc-300">{t('nodes.config.embedded')}</p>
            </ContentBox>
          ) : (
            <SetupCommand nodeId={node.id} />
          )
        }
      </ItemLoader>
      <ContentBox title={t('nodes.config.file_title')}>
        <div className="space-y-3 text-sm text-zinc-300">
          <p>
            <WithCode text={t('nodes.config.file_hint', { path: DAEMON_CONFIG_PATH })} />
          </p>
          <p className="text-amber-300">{t('nodes.config.secret_warning')}</p>
          <ItemLoader query={configuration}>
            {(document) => {
              const text = `${JSON.stringify(document, null, 2)}\n`;
              return (
                <div className="space-y-2">
                  <div className="flex justify-end">
                    <CopyOnClick text={text} className={COPY}>
                      {t('nodes.config.copy_file')}
                    </CopyOnClick>
                  </div>
                  <pre
                    aria-label={t('nodes.config.file_label')}
                    tabIndex={0}
                    className={`${CODE} max-h-[28rem]`}
                  >
                    {text}
                  </pre>
                </div>
              );
            }}
          </ItemLoader>
        </div>
      </ContentBox>
    </div>
  );
}

function SetupCommand({ nodeId }: { nodeId: number }) {
  const { t } = useTranslation('admin');
  const [minted, setMinted] = useState<NodeSetupToken | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const generate = () => {
    setBusy(true);
    setError(null);
    createNodeSetupToken(nodeId).then(
      (token) => {
        setMinted(token);
        setBusy(false);
      },
      (cause: unknown) => {
        setError(httpErrorToHuman(cause));
        setBusy(false);
      },
    );
  };

  return (
    <ContentBox title={t('nodes.config.setup_title')}>
      <div className="space-y-3 text-sm text-zinc-300">
        <p>{t('nodes.config.setup_intro')}</p>
        <ol className="list-decimal space-y-1 pl-5 text-zinc-300">
          <li>{t('nodes.config.setup_step_checkout')}</li>
          <li>{t('nodes.config.setup_step_run')}</li>
          <li>
            <WithCode text={t('nodes.config.setup_step_start')} />
          </li>
        </ol>
        <p className="text-xs text-zinc-400">{t('nodes.config.setup_app_url')}</p>
        <Button onClick={generate} isLoading={busy}>
          {minted ? t('nodes.config.generate_again') : t('nodes.config.generate')}
        </Button>
        {error && <MessageBox type="error">{error}</MessageBox>}
        {minted && (
          <div className="space-y-2" aria-live="polite">
            <pre
              aria-label={t('nodes.config.command_label')}
              tabIndex={0}
              className={`${CODE} whitespace-pre-wrap break-all`}
            >
              {minted.command}
            </pre>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-xs text-amber-300">
                {t('nodes.config.valid_for', {
                  minutes: NODE_SETUP_TOKEN_MINUTES,
                  time: formatMoment(minted.expiresAt) ?? '—',
                })}
              </p>
              <CopyOnClick text={minted.command} className={COPY}>
                {t('nodes.config.copy_command')}
              </CopyOnClick>
            </div>
          </div>
        )}
      </div>
    </ContentBox>
  );
}
