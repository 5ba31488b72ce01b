import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

let panel: TestPanel;
const lines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  panel = await startTestPanel({}, { log: pino({ level: 'info' }, sink) });
});
afterAll(async () => {
  await panel.close();
});

/** The panel's log lines that mention `path` (pino writes them before the answer reaches us). */
function logged(path: string): string {
  return lines.filter((l) => l.includes(path)).join('\n');
}

describe('request log', () => {
  it('keeps the path but not the password of DELETE /api/client/account/two-factor?password=', async () => {
    const client = await panel.signedIn(await panel.createUser());
    await client.delete('/api/client/account/two-factor?password=hunter2');
    const log = logged('/api/client/account/two-factor');
    expect(log).toContain('"method":"DELETE"');
    expect(log).toContain('password=');
    expect(log).not.toContain('hunter2');
  });

  it('leaves out tokens, codes and signatures in query strings and the reset token in the path', async () => {
    const client = new TestClient(panel.url);
    await client.get('/auth/password/reset/Sup3rSecretResetToken0123456789?email=a%40example.com');
    await client.get(
      '/api/client/whatever?token=tok-SECRET1&code=123999&recovery_token=rec-SECRET2&signature=sig-SECRET3&Password=pw-SECRET4&page=2',
    );
    const all = lines.join('\n');
    for (const secret of [
      'Sup3rSecretResetToken',
      'tok-SECRET1',
      '123999',
      'rec-SECRET2',
      'sig-SECRET3',
      'pw-SECRET4',
    ])
      expect(all).not.toContain(secret);
    expect(logged('/api/client/whatever')).toContain('page=2');
    expect(logged('/auth/password/reset/')).toContain('email=');
  });

  it('never logs Authorization or Cookie headers', async () => {
    const client = TestClient.withKey(panel.url, 'ptlc_HeaderSecretValue123');
    client.cookies.set('talon_session', 'CookieSecretValue456');
    await client.get('/api/client/account');
    const all = lines.join('\n');
    expect(logged('/api/client/account')).not.toBe('');
    expect(all).not.toContain('HeaderSecretValue123');
    expect(all).not.toContain('CookieSecretValue456');
  });
});
