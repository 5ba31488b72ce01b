/**
 * Collects console lines and hands them over in one piece per animation frame, so a flooding
 * server costs one terminal write per frame instead of one per line (thousands per second).
 */
export class LineBatcher {
  private pending: string[] = [];
  private scheduled = false;

  constructor(
    private readonly flush: (text: string, lines: number) => void,
    private readonly schedule: (run: () => void) => void = (run) => {
      // requestAnimationFrame stops in background tabs; the timeout keeps output flowing there.
      let done = false;
      const once = () => {
        if (done) return;
        done = true;
        run();
      };
      requestAnimationFrame(once);
      setTimeout(once, 250);
    },
  ) {}

  push(line: string): void {
    this.pending.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.drain());
  }

  drain(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    // Each line ends with a colour reset so one line's ANSI colour cannot bleed into the next.
    this.flush(lines.join('\u001b[0m\r\n') + '\u001b[0m\r\n', lines.length);
  }

  /** Drops what was not written yet (the terminal is being reset). */
  discard(): void {
    this.pending = [];
  }
}
