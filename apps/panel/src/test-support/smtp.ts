import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a loopback port that keeps every message it receives. `refuseRecipient`:
 * recipients ending so are refused with `550 5.1.1 …`, as a server refuses an unknown mailbox.
 */
export async function startSmtpServer(opts: { refuseRecipient?: string } = {}): Promise<{
  port: number;
  mails: CapturedMail[];
  close: () => Promise<void>;
}> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.refuseRecipient && address.address.endsWith(opts.refuseRecipient)) {
        const refusal = Object.assign(new Error('5.1.1 No such mailbox here'), { responseCode: 550 });
        return callback(refusal);
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Undoes quoted-printable soft line breaks so a link in the body can be matched whole. */
export function mailText(raw: string): string {
  return raw.replace(/=\r?\n/gu, '').replace(/=3D/gu, '=');
}
