import ssh2, { type SFTPWrapper } from 'ssh2';

export type SshClient = InstanceType<typeof ssh2.Client>;

/** Log in with a password over SSH (a real ssh2 client) and open the sftp subsystem. */
export function sftpLogin(
  port: number,
  username: string,
  password: string,
): Promise<{ client: SshClient; sftp: SFTPWrapper }> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.once('error', reject);
    client.once('ready', () => {
      client.sftp((err, sftp) => (err ? reject(err) : resolve({ client, sftp })));
    });
    client.connect({ host: '127.0.0.1', port, username, password, tryKeyboard: false, readyTimeout: 10_000 });
  });
}

/** The SFTP status code of a failed call, or 'ok'. */
export async function sftpCode(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

/** Promise forms of the SFTP requests the tests send, one request each. */
export const sftpOp = {
  open: (s: SFTPWrapper, p: string, flags: 'r' | 'w' | 'a' | 'r+') =>
    new Promise<Buffer>((res, rej) => s.open(p, flags, (e, h) => (e ? rej(e) : res(h)))),
  write: (s: SFTPWrapper, h: Buffer, data: Buffer, position: number) =>
    new Promise<void>((res, rej) => s.write(h, data, 0, data.length, position, (e) => (e ? rej(e) : res()))),
  close: (s: SFTPWrapper, h: Buffer) =>
    new Promise<void>((res, rej) => s.close(h, (e) => (e ? rej(e) : res()))),
  list: (s: SFTPWrapper, p: string) =>
    new Promise<string[]>((res, rej) => s.readdir(p, (e, l) => (e ? rej(e) : res(l.map((x) => x.filename))))),
};
