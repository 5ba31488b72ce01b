/** Console plumbing: line splitting, the history ring, the output throttle, daemon notices. */

const MAX_LINE = 64 * 1024;

/**
 * Turns a byte stream into console lines. A trailing partial line is held until its newline
 * arrives (or `flush`); over-long lines are cut so one runaway write cannot exhaust memory.
 */
export class LineSplitter {
  private partial = '';
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    for (const raw of parts) this.emit(raw);
    while (this.partial.length > MAX_LINE) {
      this.emit(this.partial.slice(0, MAX_LINE));
      this.partial = this.partial.slice(MAX_LINE);
    }
  }

  flush(): void {
    if (this.partial) this.emit(this.partial);
    this.partial = '';
  }

  private emit(raw: string): void {
    // Minecraft ends some lines with " \r": keep it visible as CRLF; drop a lone trailing CR.
    let line = raw.replaceAll(' \r', '\r\n');
    if (line.endsWith('\r') && !line.endsWith('\r\n')) line = line.slice(0, -1);
    this.onLine(line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line);
  }
}

/**
 * Fixed-size history of console lines (for `send logs` and GET /logs): a circular buffer, so each
 * line costs one store however full it is.
 */
export class RingBuffer {
  private readonly lines: string[];
  private next = 0;
  private size = 0;

  constructor(private readonly capacity: number) {
    this.lines = new Array<string>(capacity);
  }

  push(line: string): void {
    this.lines[this.next] = line;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  last(n: number): string[] {
    const count = Math.min(Math.max(n, 0), this.size);
    const out: string[] = [];
    for (let i = count; i > 0; i--)
      out.push(this.lines[(this.next - i + this.capacity) % this.capacity] ?? '');
    return out;
  }

  clear(): void {
    this.next = 0;
    this.size = 0;
  }
}

/**
 * At most `lines` lines per window of `intervalMs`; the window starts with the first line after the
 * previous one elapsed. `accept` returns 'pass', 'notice' (first dropped line of the window: tell
 * the user once) or 'drop'.
 */
export class ConsoleThrottle {
  private windowStart = 0;
  private count = 0;
  private noticed = false;

  constructor(
    private readonly lines: number,
    private readonly intervalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  accept(): 'pass' | 'notice' | 'drop' {
    const t = this.now();
    if (t - this.windowStart >= this.intervalMs) {
      this.windowStart = t;
      this.count = 0;
      this.noticed = false;
    }
    this.count++;
    if (this.count <= this.lines) return 'pass';
    if (this.noticed) return 'drop';
    this.noticed = true;
    return 'notice';
  }

  reset(): void {
    this.windowStart = 0;
    this.count = 0;
    this.noticed = false;
  }
}

export const THROTTLE_NOTICE = 'Server is outputting console data too quickly -- throttling...';

/** A daemon notice as a console line: yellow bold prefix, then the text, then a reset. */
export function daemonLine(appName: string, text: string): string {
  return `\x1b[33m\x1b[1m[${appName} Daemon]:\x1b[39m ${text}\x1b[0m`;
}

// CSI/OSC and other escape sequences, for eggs with `strip_ansi`.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

export function stripAnsi(line: string): string {
  return line.replace(ANSI, '');
}

/**
 * The egg's `done` matchers: substrings, or `regex:<pattern>` (falls back to substring if invalid).
 * An empty string is contained in every line: as with Wings, the server is running at its first line.
 */
export function doneMatcher(done: string | string[], strip: boolean): (line: string) => boolean {
  const tests = (Array.isArray(done) ? done : [done]).map((d): ((l: string) => boolean) => {
    if (d.startsWith('regex:') && d.length > 'regex:'.length) {
      try {
        const re = new RegExp(d.slice('regex:'.length));
        return (l) => re.test(l);
      } catch {
        // fall through to a substring match of the whole text
      }
    }
    return (l) => l.includes(d);
  });
  return (line) => {
    const l = strip ? stripAnsi(line) : line;
    return tests.some((t) => t(l));
  };
}
