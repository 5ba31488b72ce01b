import { useEffect, useRef } from 'react';
import { Terminal as XTerm } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { WS_INBOUND, WS_OUTBOUND } from '@talon/shared/wings/events';
import { LineBatcher } from './lineBatcher.ts';
import { SOCKET_OPEN, type ServerSocket } from './socket.ts';
import { useServerStore } from './store.ts';

/** Lines kept above the screen: enough for a long flood to stay readable and countable. */
export const SCROLLBACK = 10_000;

const PRELUDE = '\u001b[1m\u001b[33mcontainer@talon~ \u001b[0m';

/**
 * The console output (spec 001 §2 "Console"): an xterm terminal fed from the live connection.
 * After every (re)connection the terminal is cleared and the daemon's log tail requested again.
 */
export function Terminal({ socket }: { socket: ServerSocket | null }) {
  const host = useRef<HTMLDivElement>(null);
  const connected = useServerStore((s) => s.connected);
  const term = useRef<XTerm | null>(null);
  const batcher = useRef<LineBatcher | null>(null);
  const written = useRef(0);

  useEffect(() => {
    const xterm = new XTerm({
      disableStdin: true,
      convertEol: false,
      cursorStyle: 'underline',
      fontSize: 12,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      scrollback: SCROLLBACK,
      rows: 30,
      theme: { background: '#09090b', foreground: '#e4e4e7' },
    });
    // Output only (commands go through CommandInput), yet xterm's textarea swallows Tab even with
    // stdin disabled, trapping keyboard users. Leaving Tab/Shift+Tab to the browser moves the focus on;
    // every other key (Ctrl+C copy of a selection included) keeps xterm's handling.
    xterm.attachCustomKeyEventHandler((event) => event.key !== 'Tab');
    const fit = new FitAddon();
    xterm.loadAddon(fit);
    xterm.open(host.current!);
    const refit = () => {
      try {
        fit.fit();
      } catch {
        // Not laid out yet (hidden); the next resize fits it.
      }
    };
    refit();
    const observer = new ResizeObserver(refit);
    observer.observe(host.current!);
    term.current = xterm;
    batcher.current = new LineBatcher((text, lines) => {
      xterm.write(text);
      written.current += lines;
      host.current?.setAttribute('data-lines-written', String(written.current));
    });
    return () => {
      observer.disconnect();
      batcher.current?.discard();
      xterm.dispose();
      term.current = null;
    };
  }, []);

  useEffect(() => {
    if (!socket) return;
    const line = (text = '') => batcher.current?.push(text);
    const offs = [
      socket.on(WS_OUTBOUND.consoleOutput, line),
      socket.on(WS_OUTBOUND.installOutput, line),
      socket.on(WS_OUTBOUND.daemonMessage, (text = '') => line(PRELUDE + text)),
      socket.on(WS_OUTBOUND.daemonError, (text = '') => line(`${PRELUDE}\u001b[1m\u001b[41m${text}`)),
      socket.on('transfer logs', line),
      socket.on(SOCKET_OPEN, () => {
        // A new connection replays the log tail; clear first so nothing shows twice.
        batcher.current?.discard();
        term.current?.reset();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [socket]);

  useEffect(() => {
    if (connected) socket?.send(WS_INBOUND.sendLogs);
  }, [connected, socket]);

  return (
    <div
      ref={host}
      data-testid="console-terminal"
      className="h-[28rem] w-full overflow-hidden rounded-t-lg bg-zinc-950 p-2"
    />
  );
}
