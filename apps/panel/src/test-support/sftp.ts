import ssh2, { type SFTPWrapper } from 'ssh2';

/** An SFTP session of a real SSH client on a daemon, and the promise that it ends. */
export interface SftpSession {
  sftp: SFTPWrapper;
  client: ssh2.Client;
  /** resolves when the connection closes (the daemon ended it, or {@link SftpSession.end}) */
  closed: Promise<void>;
  readdir(path: string): Promise<string[]>;
  writeFile(path: string, text: string): Promise<void>;
  end(): void;
}

/**
 * Signs in over SFTP with a password (`<panel username>.<short server id>`). Rejects when the daemon
 * refuses the login (`All configured authentication methods failed`).
 */
export function openSftp(port: number, username: string, password: string): Promise<SftpSession> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    const closed = new Promise<void>((done) => client.once('close', () => done()));
    // Before the session: the login failed. After: the connection broke, which `closed` reports.
    client.on('error', reject);
    client.once('ready', () =>
      client.sftp((err, sftp) => {
        if (err) return reject(err);
        resolve({
          sftp,
          client,
          closed,
          readdir: (path) =>
            new Promise((ok, fail) =>
              sftp.readdir(path, (e, list) => (e ? fail(e) : ok(list.map((f) => f.filename).sort()))),
            ),
          writeFile: (path, text) =>
            new Promise((ok, fail) => sftp.writeFile(path, text, (e) => (e ? fail(e) : ok()))),
          end: () => client.end(),
        });
      }),
    );
    client.connect({ host: '127.0.0.1', port, username, password, tryKeyboard: false, readyTimeout: 15_000 });
  });
}
