/** Output queued for one browser beyond this is skipped (4 MiB: seconds of a flooding server). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** How many of the newest skipped lines are sent once the browser has caught up. */
export const REPLAYED_LINES = 100;
const WATCH_MS = 100;

export interface PacedSocket {
  readonly bufferedAmount: number;
}

export interface PacerDeps {
  socket: PacedSocket;
  /** sends one console line to the browser */
  send: (line: string) => void;
  /** the server's newest console lines, oldest first (the current line included) */
  recent: (count: number) => string[];
  /** the text that says how many lines were left out */
  notice: (skipped: number) => string;
  /** false while the socket may not receive console output (its token expired) */
  usable: () => boolean;
}

/**
 * Console lines for one socket. While the browser keeps up, every line is sent. When its queue is
 * over MAX_BUFFERED_BYTES (a stalled or slow tab), lines are counted instead of queued, so the
 * daemon's memory stays bounded. Once the queue has drained, the browser gets a notice of how many
 * lines it missed and then the newest of them: the end of a burst (often why a server stopped) is
 * what people need to see, and it must not wait for the server's next line.
 */
export class ConsolePacer {
  private skipped = 0;
  private watch: NodeJS.Timeout | null = null;

  constructor(private readonly deps: PacerDeps) {}

  line(text: string): void {
    if (this.deps.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.skipped++;
      this.watchForDrain();
      return;
    }
    if (this.skipped === 0) {
      this.deps.send(text);
      return;
    }
    // The current line is already the newest of the server's lines: it is sent with the replay.
    this.skipped++;
    this.catchUp();
  }

  dispose(): void {
    if (this.watch) clearInterval(this.watch);
    this.watch = null;
  }

  private watchForDrain(): void {
    if (this.watch) return;
    this.watch = setInterval(() => {
      // Half the limit: resume only with room to spare, or the next burst skips again at once.
      if (this.deps.socket.bufferedAmount <= MAX_BUFFERED_BYTES / 2 && this.deps.usable()) this.catchUp();
    }, WATCH_MS);
    this.watch.unref();
  }

  private catchUp(): void {
    this.dispose();
    const tail = this.deps.recent(Math.min(this.skipped, REPLAYED_LINES));
    const left = this.skipped - tail.length;
    this.skipped = 0;
    if (left > 0) this.deps.send(this.deps.notice(left));
    for (const line of tail) this.deps.send(line);
  }
}
