import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, waitUntil, type Stack } from '../test-support/harness.ts';
import { sftpLogin, sftpOp, type SshClient } from '../test-support/sftp-client.ts';

// SSH connections that never log in (a denial of service by file descriptors): each one has a
// login deadline, and only so many may be waiting at once, per source address and in all. Replayed
// with raw TCP clients that connect and say nothing, against a real daemon's SFTP port.

/** A TCP client that connects from `from` and never says anything; `closed` gives what it received. */
function silentClient(port: number, from = '127.0.0.1') {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => undefined); // a reset is a close too
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  /** Resolves once the daemon sent its SSH banner (the connection was admitted), or with false on close. */
  const admitted = new Promise<boolean>((resolve) => {
    socket.on('data', () => {
      if (received.includes('\r\n')) resolve(true);
    });
    socket.once('close', () => resolve(received.includes('\r\n')));
  });
  return { socket, closed, admitted };
}

describe('sftp login deadline (real daemon, 3 s deadline)', () => {
  let stack: Stack;
  let port: number;
  let server: string;
  const clients: SshClient[] = [];
  const account = { username: 'dana', password: 'deadline secret' };

  beforeAll(async () => {
    stack = await startStack({ build: { sftpLogin: { deadlineMs: 3000 } } });
    server = await stack.createInstalled();
    stack.remote.sftpAccounts.push({
      ...account,
      publicKeys: [],
      server,
      user: randomUUID(),
      permissions: ['*'],
    });
    port = await stack.daemon.listenSftp(0);
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) c.end();
    await stack?.dispose();
  });

  const login = async () => {
    const s = await sftpLogin(port, `${account.username}.${server.slice(0, 8)}`, account.password);
    clients.push(s.client);
    return s;
  };

  it('a client that never logs in is closed at the deadline; a logged-in session is not', async () => {
    // The session connects first, so its deadline (if it had one left) would fall first.
    const session = await login();
    const silent = silentClient(port);
    expect(await silent.admitted).toBe(true);
    // closed by the daemon: the client itself never ends it
    expect(await silent.closed).toMatch(/^SSH-2\.0-Talon\r\n/);
    expect(await sftpOp.list(session.sftp, '.')).toEqual(expect.any(Array));
    // and the daemon still serves new logins
    const again = await login();
    expect(await sftpOp.list(again.sftp, '.')).toEqual(expect.any(Array));
  }, 30_000);
});

describe('sftp connections waiting to log in are capped (real daemon, 3 per address, 5 in all)', () => {
  let stack: Stack;
  let port: number;
  const open: net.Socket[] = [];

  beforeAll(async () => {
    stack = await startStack({ build: { sftpLogin: { pendingPerAddress: 3, pendingTotal: 5 } } });
    port = await stack.daemon.listenSftp(0);
  }, 60_000);
  afterAll(async () => {
    for (const s of open) s.destroy();
    await stack?.dispose();
  });

  /** A silent client from `from` that was admitted (it got the banner). */
  const admitted = async (from: string) => {
    const c = silentClient(port, from);
    open.push(c.socket);
    expect(await c.admitted).toBe(true);
    return c;
  };

  it('one more than the cap from one address, or in all, is closed at once without a banner', async () => {
    const first = await admitted('127.0.0.1');
    for (let i = 0; i < 2; i++) await admitted('127.0.0.1');
    const overAddress = silentClient(port, '127.0.0.1');
    open.push(overAddress.socket);
    expect(await overAddress.closed).toBe('');
    // another address has its own count, up to the total
    for (let i = 0; i < 2; i++) await admitted('127.0.0.2');
    const overTotal = silentClient(port, '127.0.0.3');
    open.push(overTotal.socket);
    expect(await overTotal.closed).toBe('');
    // a connection that ends gives its place back
    first.socket.destroy();
    await first.closed;
    await waitUntil(
      async () => {
        const c = silentClient(port, '127.0.0.1');
        open.push(c.socket);
        return c.admitted;
      },
      10_000,
      'a free place',
    );
  }, 30_000);
});
