import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WS_INBOUND } from '@talon/shared/wings/events';
import { httpErrorToHuman } from '../../api/errors.ts';
import { getFileContents, saveFileContents } from '../../api/files.ts';
import { Button } from '../../components/Button.tsx';
import { MessageBox } from '../../components/MessageBox.tsx';
import { can } from '../../lib/shared.ts';
import { EULA_PROMPT, useConsoleMatch } from './consoleMatch.ts';
import { FeaturePanel } from './FeaturePanel.tsx';
import { useServerStore } from './store.ts';

const EULA_FILE = 'eula.txt';
const ACCEPTED = /^\s*eula\s*=\s*true\s*$/im;

/**
 * The `eula` egg feature: shows whether the server's EULA is accepted and accepts it by writing
 * `eula=true` into eula.txt, then starts the server again (it stops itself until then).
 */
export function EulaPanel() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const permissions = useServerStore((s) => s.permissions);
  const socket = useServerStore((s) => s.socket);
  const powerState = useServerStore((s) => s.powerState);
  const prompted = useConsoleMatch(socket, EULA_PROMPT);
  const client = useQueryClient();
  const [justAccepted, setJustAccepted] = useState(false);
  const canRead = can(permissions, 'file.read-content');
  const canWrite = can(permissions, 'file.create');

  const file = useQuery({
    queryKey: ['server', server.id, 'eula'],
    queryFn: () => getFileContents(server.id, EULA_FILE),
    enabled: canRead,
    retry: false,
  });
  const accepted = justAccepted || (file.data !== undefined && ACCEPTED.test(file.data));

  const accept = useMutation({
    mutationFn: () => saveFileContents(server.id, EULA_FILE, 'eula=true\n'),
    onSuccess: () => {
      setJustAccepted(true);
      void client.invalidateQueries({ queryKey: ['server', server.id, 'eula'] });
      if (powerState === 'offline' && can(permissions, 'control.start')) socket?.send(WS_INBOUND.setState, 'start');
    },
  });

  // Amber until accepted; brought into view when the server stops for it.
  return (
    <FeaturePanel id="eula" title={t('eula.title')} attention={!accepted} reveal={prompted && !accepted}>
      {accepted ? (
        <p className="mt-1 text-sm text-emerald-300" data-testid="eula-accepted">
          {t('eula.accepted')}
        </p>
      ) : (
        <>
          {prompted && (
            <p className="mt-1 text-sm font-medium text-amber-100" role="status">
              {t('eula.prompt')}
            </p>
          )}
          <p className="mt-1 text-sm break-words text-amber-100/80">{t('eula.text')}</p>
          {accept.isError && (
            <div className="mt-3">
              <MessageBox type="error">{httpErrorToHuman(accept.error)}</MessageBox>
            </div>
          )}
          {canWrite ? (
            <Button className="mt-3" isLoading={accept.isPending} onClick={() => accept.mutate()}>
              {t('eula.accept')}
            </Button>
          ) : (
            <p className="mt-2 text-xs text-zinc-400">{t('eula.no_permission')}</p>
          )}
        </>
      )}
    </FeaturePanel>
  );
}
