import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WS_INBOUND, type PowerAction } from '@talon/shared/wings/events';
import { can } from '../../lib/shared.ts';
import { Button } from '../../components/Button.tsx';
import { POWER_PERMISSIONS, powerButtons } from './power.ts';
import { useServerStore } from './store.ts';

/** Start, Restart and Stop-or-Kill (spec 001 §2, §4), each shown only with its permission. */
export function PowerButtons() {
  const { t } = useTranslation('server');
  const permissions = useServerStore((s) => s.permissions);
  const state = useServerStore((s) => s.powerState);
  const socket = useServerStore((s) => s.socket);
  const connected = useServerStore((s) => s.connected);
  const [stopPressed, setStopPressed] = useState(false);

  // A stop in progress ends when the server is offline (or running again): Stop is Stop again.
  useEffect(() => {
    if (state === 'offline' || state === 'running' || state === 'starting') setStopPressed(false);
  }, [state]);

  if (!POWER_PERMISSIONS.some((p) => can(permissions, p))) return null;
  const rules = powerButtons(state, stopPressed);
  const send = (action: PowerAction) => socket?.send(WS_INBOUND.setState, action);

  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={t('power.label')}>
      {can(permissions, 'control.start') && (
        <Button variant="primary" disabled={!connected || !rules.startEnabled} onClick={() => send('start')}>
          {t('power.start')}
        </Button>
      )}
      {can(permissions, 'control.restart') && (
        <Button
          variant="secondary"
          disabled={!connected || !rules.restartEnabled}
          onClick={() => send('restart')}
        >
          {t('power.restart')}
        </Button>
      )}
      {can(permissions, 'control.stop') && (
        <Button
          variant="danger"
          disabled={!connected || !rules.stopEnabled}
          onClick={() => {
            send(rules.stopAction);
            setStopPressed(true);
          }}
        >
          {rules.stopAction === 'kill' ? t('power.kill') : t('power.stop')}
        </Button>
      )}
    </div>
  );
}
