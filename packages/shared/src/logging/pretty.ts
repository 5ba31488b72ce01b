/**
 * One pino JSON log line as a short human-readable line, for operators watching a terminal:
 * `12:04:05 INFO  daemon  daemon listening url=http://127.0.0.1:8081`. Errors keep their stack.
 * Lines that are not pino JSON are passed through unchanged.
 */
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line has or that are shown in their own place. */
const FIXED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'svc', 'err', 'v']);

function value(v: unknown): string {
  if (typeof v === 'string') return /\s/u.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
}

export function prettyLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (typeof entry !== 'object' || entry === null || typeof entry.level !== 'number') {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = LEVELS[entry.level] ?? String(entry.level);
  const svc = typeof entry.svc === 'string' ? ` ${entry.svc.padEnd(6)}` : ' panel ';
  const fields = Object.entries(entry)
    .filter(([k]) => !FIXED.has(k))
    .map(([k, v]) => `${k}=${value(v)}`);
  let out = `${time} ${level}${svc} ${typeof entry.msg === 'string' ? entry.msg : ''}`;
  if (fields.length > 0) out += ` ${fields.join(' ')}`;
  const err = entry.err as { stack?: unknown; message?: unknown } | undefined;
  if (err && typeof err === 'object') {
    const text =
      typeof err.stack === 'string'
        ? err.stack
        : typeof err.message === 'string'
          ? err.message
          : JSON.stringify(err);
    out += `\n    ${text.replaceAll('\n', '\n    ')}`;
  }
  return `${out}\n`;
}

interface RequestLine {
  msg?: unknown;
  reqId?: unknown;
  req?: { method?: unknown; url?: unknown };
  res?: { statusCode?: unknown };
  responseTime?: unknown;
}

/**
 * A pino destination that prints every line through prettyLogLine, except that the HTTP server's
 * two lines per request become one: `GET /api/client → 401 (2 ms)` when the request completes.
 */
export function prettyDestination(write: (text: string) => void): { write: (line: string) => void } {
  const started = new Map<unknown, string>();
  return {
    write: (line) => {
      let entry: RequestLine | null = null;
      try {
        entry = JSON.parse(line) as RequestLine;
      } catch {
        entry = null;
      }
      if (entry?.msg === 'incoming request' && entry.req) {
        // Bounded: a request that never completes must not be remembered for ever.
        if (started.size > 1000) started.clear();
        started.set(entry.reqId, `${String(entry.req.method)} ${String(entry.req.url)}`);
        return;
      }
      if (entry?.msg === 'request completed' && entry.res && started.has(entry.reqId)) {
        const what = started.get(entry.reqId);
        started.delete(entry.reqId);
        const ms = Math.round(Number(entry.responseTime));
        const { res: _res, responseTime: _t, reqId: _id, ...rest } = entry as Record<string, unknown>;
        write(
          prettyLogLine(
            JSON.stringify({ ...rest, msg: `${what} → ${String(entry.res.statusCode)} (${ms} ms)` }),
          ),
        );
        return;
      }
      write(prettyLogLine(line));
    },
  };
}

/** `LOG_FORMAT`: `pretty` or `json`; unset means pretty on a terminal and JSON otherwise. */
export function wantsPrettyLogs(format: string | undefined, isTerminal: boolean): boolean {
  return format === 'pretty' || (format !== 'json' && isTerminal);
}
