import { describe, expect, it } from 'vitest';
import { prettyDestination, prettyLogLine, wantsPrettyLogs } from './pretty.ts';

const at = Date.UTC(2026, 10, 22, 12, 4, 5);

describe('prettyLogLine', () => {
  it('puts time, level, service and message first, other fields after', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      pid: 7,
      hostname: 'h',
      svc: 'daemon',
      msg: 'daemon listening',
      url: 'http://127.0.0.1:8081',
      count: 3,
    });
    expect(prettyLogLine(line)).toBe(
      '12:04:05 INFO  daemon daemon listening url=http://127.0.0.1:8081 count=3\n',
    );
  });

  it('names the panel when no service is given, quotes values with spaces, keeps error stacks', () => {
    const line = JSON.stringify({
      level: 50,
      time: at,
      msg: 'request failed',
      reason: 'two words',
      err: { message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' },
    });
    expect(prettyLogLine(line)).toBe(
      '12:04:05 ERROR panel  request failed reason="two words"\n    Error: boom\n        at x (y.ts:1:1)\n',
    );
  });

  it('passes anything that is not a pino line through unchanged', () => {
    expect(prettyLogLine('Admin user created: username=admin password=x\n')).toBe(
      'Admin user created: username=admin password=x\n',
    );
    expect(prettyLogLine('{"no":"level"}')).toBe('{"no":"level"}\n');
  });
});

describe('wantsPrettyLogs', () => {
  it.each([
    [undefined, true, true],
    [undefined, false, false],
    ['json', true, false],
    ['pretty', false, true],
  ] as const)('LOG_FORMAT=%s on a terminal: %s → %s', (format, terminal, pretty) => {
    expect(wantsPrettyLogs(format, terminal)).toBe(pretty);
  });
});

describe('prettyDestination', () => {
  it("turns the HTTP server's two lines per request into one", () => {
    const out: string[] = [];
    const dest = prettyDestination((text) => out.push(text));
    dest.write(
      JSON.stringify({
        level: 30,
        time: at,
        reqId: 'req-3',
        req: { method: 'GET', url: '/api/client' },
        msg: 'incoming request',
      }),
    );
    dest.write(JSON.stringify({ level: 30, time: at, msg: 'something else' }));
    dest.write(
      JSON.stringify({
        level: 30,
        time: at,
        reqId: 'req-3',
        res: { statusCode: 401 },
        responseTime: 2.46,
        msg: 'request completed',
      }),
    );
    expect(out).toEqual([
      '12:04:05 INFO  panel  something else\n',
      '12:04:05 INFO  panel  GET /api/client → 401 (2 ms)\n',
    ]);
  });
});
