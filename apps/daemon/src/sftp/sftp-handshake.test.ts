import { randomUUID } from 'node:crypto';
import net from 'node:net';
import ssh2, { type ClientChannel } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemonProcess, type DaemonProcess } from '../test-support/daemon-process.ts';
import { fixtureServer, waitUntil } from '../test-support/harness.ts';
import { sftpLogin, sftpOp } from '../test-support/sftp-client.ts';

// CVE-2026-52856 (GHSA-ghrq-5wpp-hxx5): a crafted SSH or SFTP packet crashed the daemon. Each case
// sends one to a real daemon process, waits until the daemon has closed that connection, and then
// asks whether the daemon is still there: its process, its HTTP API and a fresh SFTP login.

let daemon: DaemonProcess;
let port: number;
let server: string;
const account = { username: 'alice', password: 'handshake secret' };
const login = () => `${account.username}.${server.slice(0, 8)}`;

beforeAll(async () => {
  daemon = await startDaemonProcess();
  server = randomUUID();
  daemon.remote.servers.set(server, fixtureServer(server));
  expect((await daemon.api('POST', '/api/servers', { uuid: server })).status).toBe(202);
  await waitUntil(
    async () => (await daemon.api('GET', `/api/servers/${server}`)).status === 200,
    30_000,
    'server known',
  );
  daemon.remote.sftpAccounts.push({
    ...account,
    publicKeys: [],
    server,
    user: randomUUID(),
    permissions: ['*'],
  });
  await waitUntil(
    () => Promise.resolve(daemon.logs().some((l) => l.msg === 'sftp listening')),
    10_000,
    'sftp listening',
  );
  port = daemon.logs().find((l) => l.msg === 'sftp listening')!.port as number;
}, 60_000);

afterAll(async () => {
  await daemon?.dispose();
});

/** Open a raw TCP connection, send `chunks` (after the server's banner when `afterBanner`), and resolve once the daemon closed it. */
function rawExchange(chunks: Buffer[], afterBanner = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let received = '';
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      for (const c of chunks) sock.write(c);
    };
    sock.on('connect', () => {
      if (!afterBanner) send();
    });
    sock.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      if (afterBanner && received.includes('\r\n')) send();
    });
    sock.on('error', () => undefined); // a reset is a close too
    sock.on('close', () => resolve(received));
    sock.setTimeout(20_000, () => {
      sock.destroy();
      reject(new Error('the daemon kept the connection open for 20 s'));
    });
  });
}

/** An SSH binary packet (RFC 4253 §6) without encryption or MAC: the state before the first key exchange. */
function sshPacket(payload: Buffer): Buffer {
  let padding = 8 - ((payload.length + 5) % 8);
  if (padding < 4) padding += 8;
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length + padding + 1, 0);
  head.writeUInt8(padding, 4);
  return Buffer.concat([head, payload, Buffer.alloc(padding)]);
}

function nameList(names: string): Buffer {
  const b = Buffer.alloc(4 + Buffer.byteLength(names));
  b.writeUInt32BE(Buffer.byteLength(names), 0);
  b.write(names, 4);
  return b;
}

/** SSH_MSG_KEXINIT with the given name-lists (10 of them) */
function kexinit(lists: string[]): Buffer {
  return Buffer.concat([
    Buffer.from([20]),
    Buffer.alloc(16, 7),
    ...lists.map(nameList),
    Buffer.from([0, 0, 0, 0, 0]),
  ]);
}

const CLIENT_BANNER = Buffer.from('SSH-2.0-handshake_test\r\n');

/** The daemon process is alive, answers HTTP, and a new SFTP client logs in and lists files. */
async function expectDaemonServing(): Promise<void> {
  expect(daemon.child.exitCode).toBeNull();
  expect(daemon.child.signalCode).toBeNull();
  expect((await daemon.api('GET', '/api/system')).status).toBe(200);
  const { client, sftp } = await sftpLogin(port, login(), account.password);
  expect(Array.isArray(await sftpOp.list(sftp, '/'))).toBe(true);
  client.end();
  expect(daemon.logs().filter((l) => l.level >= 60)).toEqual([]);
}

function sshLogin(): Promise<InstanceType<typeof ssh2.Client>> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.once('error', reject);
    client.once('ready', () => resolve(client));
    client.connect({
      host: '127.0.0.1',
      port,
      username: login(),
      password: account.password,
      tryKeyboard: false,
      readyTimeout: 10_000,
    });
  });
}

/** After a real login, open the `sftp` subsystem as a raw channel and send `bytes` on it; resolves once the daemon closed the channel. */
async function rawSftp(bytes: Buffer): Promise<void> {
  const client = await sshLogin();
  try {
    const channel = await new Promise<ClientChannel>((res, rej) =>
      client.subsys('sftp', (e, c) => (e ? rej(e) : res(c))),
    );
    await new Promise<void>((resolve) => {
      channel.on('data', () => undefined);
      channel.stderr.on('data', () => undefined);
      channel.on('close', () => resolve());
      client.on('close', () => resolve());
      channel.write(bytes);
    });
  } finally {
    client.end();
  }
}

/**
 * Send a password login and close the connection while the panel is still deciding: the answer
 * then arrives for a connection that is gone. Resolves once the daemon has handled that answer
 * (its debug line) or has exited.
 */
async function leaveDuringLogin(): Promise<void> {
  let open!: () => void;
  daemon.remote.sftpAuthGate = new Promise<void>((r) => (open = r));
  const attempts = daemon.remote.sftpAttempts.length;
  // Our own socket, so its port tells the daemon's log line about this connection from others.
  const sock = net.connect(port, '127.0.0.1');
  await new Promise<void>((r) => sock.once('connect', () => r()));
  const localPort = sock.localPort;
  const client = new ssh2.Client();
  client.on('error', () => undefined);
  client.connect({ sock, username: login(), password: account.password, tryKeyboard: false });
  const closed = new Promise<void>((r) => client.once('close', () => r()));
  try {
    await waitUntil(
      () => Promise.resolve(daemon.remote.sftpAttempts.length > attempts),
      10_000,
      'login asked of the panel',
    );
    client.destroy();
    await closed;
    // The panel answers only once the daemon has seen this connection close.
    await waitUntil(
      () =>
        Promise.resolve(
          daemon.logs().some((l) => l.msg === 'sftp connection closed' && l.port === localPort),
        ),
      10_000,
      'daemon saw the connection close',
    );
  } finally {
    daemon.remote.sftpAuthGate = null;
    open();
  }
  await waitUntil(
    () =>
      Promise.resolve(
        daemon.child.exitCode !== null ||
          daemon.logs().some((l) => l.msg === 'sftp login answered after the client left'),
      ),
    10_000,
    'the late answer handled',
  );
}

/** An SFTP packet: uint32 length, type, body. `length` overrides the real length. */
function sftpPacket(type: number, body: Buffer, length = body.length + 1): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(length >>> 0, 0);
  head.writeUInt8(type, 4);
  return Buffer.concat([head, body]);
}

const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
};

describe('crafted SSH handshakes do not crash the daemon (CVE-2026-52856)', () => {
  it('a bad version line', async () => {
    await rawExchange(
      [Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), Buffer.from('SSH-9.9-\0\0\0\r\n')],
      false,
    );
    await expectDaemonServing();
  });

  it('garbage after the banner', async () => {
    await rawExchange([CLIENT_BANNER, Buffer.alloc(4096, 0xff)]);
    await expectDaemonServing();
  });

  it('a packet announcing a huge length', async () => {
    await rawExchange([CLIENT_BANNER, Buffer.from([0xff, 0xff, 0xff, 0xf0, 4]), Buffer.alloc(64, 1)]);
    await expectDaemonServing();
  });

  it('a KEXINIT with absurd name-lists', async () => {
    const absurd = Array.from({ length: 10 }, (_, i) =>
      i < 4 ? Array.from({ length: 3000 }, (_, j) => `x${j}@evil`).join(',') : ',,,\0,',
    );
    await rawExchange([CLIENT_BANNER, sshPacket(kexinit(absurd))]);
    await expectDaemonServing();
  });

  it('a KEXINIT whose name-list lengths run past the packet', async () => {
    const payload = Buffer.concat([
      Buffer.from([20]),
      Buffer.alloc(16),
      uint32(0x7ffffff0),
      Buffer.from('a,b'),
    ]);
    await rawExchange([CLIENT_BANNER, sshPacket(payload)]);
    await expectDaemonServing();
  });
});

describe('a client that leaves during login does not crash the daemon (CVE-2026-52856)', () => {
  it('the panel answers after the connection closed', async () => {
    await leaveDuringLogin();
    await expectDaemonServing();
  });
});

describe('crafted SFTP packets after login do not crash the daemon (CVE-2026-52856)', () => {
  const SSH_FXP_INIT = 1;
  const SSH_FXP_OPEN = 3;

  it('an INIT with a bad version, then a second INIT', async () => {
    await rawSftp(
      Buffer.concat([sftpPacket(SSH_FXP_INIT, uint32(0xffffffff)), sftpPacket(SSH_FXP_INIT, uint32(3))]),
    );
    await expectDaemonServing();
  });

  it('a short INIT packet', async () => {
    await rawSftp(sftpPacket(SSH_FXP_INIT, Buffer.alloc(0), 1));
    await expectDaemonServing();
  });

  it('an oversized packet', async () => {
    await rawSftp(
      Buffer.concat([
        sftpPacket(SSH_FXP_INIT, uint32(3)),
        sftpPacket(SSH_FXP_OPEN, Buffer.alloc(16), 0x7fffffff),
      ]),
    );
    await expectDaemonServing();
  });

  it('a request cut short after a good INIT', async () => {
    // OPEN with a request id and a filename length beyond the packet.
    const body = Buffer.concat([uint32(1), uint32(1000), Buffer.from('abc')]);
    await rawSftp(Buffer.concat([sftpPacket(SSH_FXP_INIT, uint32(3)), sftpPacket(SSH_FXP_OPEN, body)]));
    await expectDaemonServing();
  });
});
