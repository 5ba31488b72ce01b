import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WS_INBOUND } from '@talon/shared/wings/events';
import type { ServerSocket } from './socket.ts';
import { useServerStore } from './store.ts';

/** How many earlier commands the arrow keys can recall. */
export const HISTORY_SIZE = 32;

/** Command line under the terminal: Enter sends, up and down walk through earlier commands. */
export function CommandInput({
  socket,
  disabled,
  allowed,
}: {
  socket: ServerSocket | null;
  /** Not connected yet: typing waits for the connection. */
  disabled: boolean;
  /** The user holds control.console; without it the field says so instead of staying mute. */
  allowed: boolean;
}) {
  const { t } = useTranslation('server');
  const [value, setValue] = useState('');
  const offline = useServerStore((s) => s.powerState === 'offline');
  // Set when Enter was pressed on an offline server: the daemon would drop the command silently.
  const [refused, setRefused] = useState(false);
  const noticeId = useId();
  const showNotice = refused && offline;
  const history = useRef<string[]>([]);
  const index = useRef(-1);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      const next = event.key === 'ArrowUp' ? index.current + 1 : index.current - 1;
      if (next < -1 || next >= history.current.length) return;
      index.current = next;
      setValue(next === -1 ? '' : history.current[next]!);
      return;
    }
    if (event.key === 'Enter' && value.trim() !== '') {
      if (offline) {
        // Kept in the field so it can be sent once the server runs.
        setRefused(true);
        return;
      }
      setRefused(false);
      socket?.send(WS_INBOUND.sendCommand, value);
      history.current = [value, ...history.current.filter((c) => c !== value)].slice(0, HISTORY_SIZE);
      index.current = -1;
      setValue('');
    }
  };

  return (
    <>
      <div className="flex items-center gap-2 rounded-b-lg border-t border-zinc-800 bg-zinc-900 px-3">
        <span aria-hidden className="font-mono text-sm text-sky-400">
          $
        </span>
        <input
          type="text"
          aria-label={t('command.label')}
          placeholder={allowed ? t('command.placeholder') : t('command.no_permission')}
          autoCorrect="off"
          autoCapitalize="none"
          spellCheck={false}
          aria-describedby={showNotice ? noticeId : undefined}
          disabled={disabled || !allowed}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setRefused(false);
          }}
          onKeyDown={onKeyDown}
          // The shared focus ring: a keyboard user must see that typing goes here (issue 24).
          className="focus-ring my-1 w-full rounded bg-transparent px-1 py-1 font-mono text-sm text-zinc-100 placeholder:text-zinc-500 disabled:cursor-not-allowed disabled:opacity-50"
        />
      </div>
      {showNotice && (
        <p id={noticeId} role="status" className="mt-2 text-sm text-amber-400">
          {t('command.offline')}
        </p>
      )}
    </>
  );
}
