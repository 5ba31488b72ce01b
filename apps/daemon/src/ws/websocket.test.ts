import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../test-support/jwt-sign.ts';
import { TOKEN, startStack, type Stack } from '../test-support/harness.ts';

describe('websocket: JWT auth, permissions, expiry, denylist (real daemon)', () => {
  let stack: Stack;
  let uuid: string;
  let other: string;
  beforeAll(async () => {
    stack = await startStack();
    uuid = await stack.createInstalled();
    other = await stack.createInstalled();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it('refuses an unknown server (404) and a foreign Origin (403) at the upgrade', async () => {
    await expect(stack.ws(randomUUID())).rejects.toThrow('upgrade refused: 404');
    await expect(stack.ws(uuid, { origin: 'https://evil.example' })).rejects.toThrow('upgrade refused: 403');
  });

  it('answers every event before auth with jwt error, and rejects bad signatures and wrong servers', async () => {
    const ws = await stack.ws(uuid);
    ws.send('send stats');
    expect((await ws.waitFor((m) => m.event === 'jwt error')).args).toEqual(['jwt: no jwt present']);

    // `auth` is limited to 2 per 5 s per socket (ws/limits.ts): each bad token gets a socket of its own.
    const answerTo = async (token: string): Promise<string | undefined> => {
      const s = await stack.ws(uuid);
      s.send('auth', token);
      const m = await s.waitFor((x) => x.event === 'jwt error' || x.event === 'auth success');
      s.close();
      return m.event === 'auth success' ? 'auth success' : m.args?.[0];
    };
    const now = Math.floor(Date.now() / 1000);
    const claims = { scope: 'websocket', iat: now, exp: now + 600, server_uuid: uuid, permissions: ['*'] };
    expect(await answerTo(await signToken('wrong-secret', claims))).toBe('jwt: HMAC verification failed');
    expect(await answerTo(await signToken(TOKEN, claims, { alg: 'none' }))).toBe(
      'jwt: unsupported algorithm',
    );
    expect(await answerTo(await stack.token(other))).toBe('jwt: server uuid mismatch');
    expect(await answerTo(await stack.token(uuid, { exp: now - 5 }))).toBe('jwt: exp claim is invalid');
    expect(await answerTo(await stack.token(uuid, { permissions: ['control.console'] }))).toBe(
      'jwt: missing connect permission',
    );
    expect(await answerTo(await stack.token(uuid, { iat: undefined }))).toBe(
      'jwt: created too far in past (denylist)',
    );
    // Garbage frames are ignored and the socket stays usable.
    ws.socket.send('not json');
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success');
    const stats = await ws.waitFor((m) => m.event === 'stats');
    expect(JSON.parse(stats.args![0]!).state).toBe('offline');
  });

  it('checks permissions per event: no control.start → start ignored; no control.console → command ignored', async () => {
    const ws = await stack.ws(uuid);
    ws.send('auth', await stack.token(uuid, { permissions: ['websocket.connect', 'control.stop'] }));
    await ws.waitFor((m) => m.event === 'auth success');
    ws.send('set state', 'start');
    // An acknowledgement instead of a pause: frames are handled in order and the permission check
    // comes before anything asynchronous, so once the later 'send stats' is answered the start has
    // been refused (or begun).
    const acked = ws.messages.length;
    ws.send('send stats');
    await ws.waitFor((m) => m.event === 'stats', 10_000, acked);
    expect(ws.messages.slice(acked).some((m) => m.event === 'status' && m.args?.[0] !== 'offline')).toBe(
      false,
    );
    expect((await stack.api('GET', `/api/servers/${uuid}`)).body.state).toBe('offline');

    const admin = await stack.ws(uuid);
    admin.send('auth', await stack.token(uuid));
    await admin.waitFor((m) => m.event === 'auth success');
    admin.send('set state', 'start');
    await admin.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running');
    ws.send('send command', 'from-the-weak-token');
    admin.send('send command', 'from-admin');
    await admin.waitFor((m) => m.args?.[0] === '> from-admin');
    expect(admin.messages.some((m) => m.args?.[0] === '> from-the-weak-token')).toBe(false);
    // The weak token still sees the console (websocket.connect) …
    await ws.waitFor((m) => m.args?.[0] === '> from-admin');
    // … and a second power action while one runs gets the lock message.
    admin.send('set state', 'restart');
    admin.send('set state', 'restart');
    await admin.waitFor(
      (m) =>
        m.event === 'daemon error' &&
        m.args![0]!.includes('another power action is currently being processed'),
    );
    await admin.waitFor(
      (m) => m.event === 'status' && m.args?.[0] === 'running',
      10_000,
      admin.messages.length - 1,
    );

    // send logs replays the history; install output needs admin.websocket.install.
    const before = ws.messages.length;
    ws.send('send logs');
    await ws.waitFor((m) => m.event === 'console output' && m.args![0]!.startsWith('Done ('), 5000, before);
    admin.send('set state', 'kill');
    await admin.waitFor(
      (m) => m.event === 'status' && m.args?.[0] === 'offline',
      10_000,
      admin.messages.length - 1,
    );
  });

  it('send logs replays the last output of a stopped server too (its console is not empty after a reload)', async () => {
    const admin = await stack.ws(other);
    admin.send('auth', await stack.token(other));
    await admin.waitFor((m) => m.event === 'auth success');
    admin.send('set state', 'start');
    await admin.waitFor((m) => m.event === 'console output' && m.args![0]!.startsWith('Done ('), 30_000);
    // Offline after the kill (not the offline status sent at auth), so the next test finds it stopped.
    const killedAt = admin.messages.length;
    admin.send('set state', 'kill');
    await admin.waitFor((m) => m.event === 'status' && m.args?.[0] === 'offline', 10_000, killedAt);

    // A fresh connection, as after a page reload, to the now offline server.
    const reloaded = await stack.ws(other);
    reloaded.send('auth', await stack.token(other));
    await reloaded.waitFor((m) => m.event === 'auth success');
    reloaded.send('send logs');
    await reloaded.waitFor((m) => m.event === 'console output' && m.args![0]!.startsWith('Done ('));
  });

  it('hides real error texts without admin.websocket.errors', async () => {
    await stack.api('POST', `/api/servers/${other}/power`, { action: 'start' });
    const ws = await stack.ws(other);
    ws.send('auth', await stack.token(other, { permissions: ['*'] }));
    await ws.waitFor((m) => m.event === 'status' && m.args?.[0] === 'running');
    ws.send('set state', 'start'); // already running → an error, shown generically
    const err = await ws.waitFor((m) => m.event === 'daemon error');
    expect(err.args![0]).toMatch(
      /^Error Event \[[0-9a-f-]{36}\]: an unexpected error was encountered while handling this request$/,
    );
    await stack.api('POST', `/api/servers/${other}/power`, { action: 'kill' });
  });

  it('shows real error texts to tokens with admin.websocket.errors only', async () => {
    const root = await stack.ws(uuid);
    root.send('auth', await stack.token(uuid, { permissions: ['*', 'admin.websocket.errors'] }));
    const owner = await stack.ws(uuid);
    owner.send('auth', await stack.token(uuid, { permissions: ['*'] }));
    await root.waitFor((m) => m.event === 'auth success');
    await owner.waitFor((m) => m.event === 'auth success');
    root.send('set state', 'explode');
    owner.send('set state', 'explode');
    expect((await root.waitFor((m) => m.event === 'daemon error')).args![0]).toMatch(
      /^Error Event \[[0-9a-f-]{36}\]: attempting to handle unknown power action$/,
    );
    expect((await owner.waitFor((m) => m.event === 'daemon error')).args![0]).toMatch(
      /: an unexpected error was encountered while handling this request$/,
    );
  });

  // Wings protocol §3.5: the installer's output is for root admins (admin.websocket.install); that
  // an install started and completed is for everyone watching, the owner included.
  it('streams install output only to tokens with admin.websocket.install during a reinstall', async () => {
    const server = await stack.createInstalled();
    stack.remote.servers.get(server)!.install.script = 'echo secret-installer-line';
    const root = await stack.ws(server);
    root.send('auth', await stack.token(server, { permissions: ['*', 'admin.websocket.install'] }));
    const owner = await stack.ws(server);
    owner.send('auth', await stack.token(server, { permissions: ['*', 'admin.websocket.errors'] }));
    await root.waitFor((m) => m.event === 'auth success');
    await owner.waitFor((m) => m.event === 'auth success');
    expect((await stack.api('POST', `/api/servers/${server}/reinstall`)).status).toBe(202);
    await root.waitFor((m) => m.event === 'install started', 20_000);
    await root.waitFor(
      (m) => m.event === 'install output' && m.args?.[0] === 'secret-installer-line',
      20_000,
    );
    await root.waitFor((m) => m.event === 'install completed', 20_000);
    // Events reach each socket in bus order, so once the owner saw the install complete it has been
    // sent everything the installer printed before.
    await owner.waitFor((m) => m.event === 'install started', 20_000);
    await owner.waitFor((m) => m.event === 'install completed', 20_000);
    expect(owner.messages.filter((m) => m.event === 'install output')).toEqual([]);
    expect(JSON.stringify(owner.messages)).not.toContain('secret-installer-line');
  });

  it('sends token expiring then token expired, and refuses events after expiry; a refresh works', async () => {
    const ws = await stack.ws(uuid);
    const now = Math.floor(Date.now() / 1000);
    ws.send('auth', await stack.token(uuid, { exp: now + 2 }));
    await ws.waitFor((m) => m.event === 'auth success');
    await ws.waitFor((m) => m.event === 'token expiring');
    await ws.waitFor((m) => m.event === 'token expired');
    const at = ws.messages.length;
    ws.send('send stats');
    await ws.waitFor((m) => m.event === 'jwt error' && m.args?.[0] === 'jwt: exp claim is invalid', 3000, at);
    ws.send('auth', await stack.token(uuid));
    await ws.waitFor((m) => m.event === 'auth success', 3000, at);
    ws.send('send stats');
    await ws.waitFor((m) => m.event === 'stats', 3000, at);
  });

  it('denylists a jti for tokens issued up to the denial; newer tokens work, in the same second too (issue 23 item 9)', async () => {
    const ws = await stack.ws(uuid);
    const old = await stack.token(uuid, { jti: 'user-7', iat: Math.floor(Date.now() / 1000) - 1 });
    ws.send('auth', old);
    await ws.waitFor((m) => m.event === 'auth success');
    expect((await stack.api('POST', `/api/servers/${uuid}/ws/deny`, { jtis: ['user-7'] })).status).toBe(204);
    const at = ws.messages.length;
    ws.send('send stats');
    await ws.waitFor(
      (m) => m.event === 'jwt error' && m.args?.[0] === 'jwt: created too far in past (denylist)',
      3000,
      at,
    );
    // Issued after the denial, most likely in its second: its issued_at_ms says it is newer.
    const issued = Date.now();
    ws.send(
      'auth',
      await stack.token(uuid, { jti: 'user-7', iat: Math.floor(issued / 1000), issued_at_ms: issued }),
    );
    await ws.waitFor((m) => m.event === 'auth success', 3000, at);
  });
});
