import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Where and how mail is sent: MAIL_* or the admin's Settings screen (modules/settings). */
export type MailSettings = Config['mail'];

/**
 * SMTP when a mail host is set; otherwise the mail is written to the log, so someone running the
 * panel on their own machine can still follow a password-reset link. The settings are asked for
 * each mail: an admin's change on the Settings screen applies to the next one.
 */
export function createMailer(settings: () => Promise<MailSettings>, log: Logger): Mailer {
  return {
    async send(m) {
      const mail = await settings();
      if (!mail.host) {
        log.info(
          { to: m.to, subject: m.subject },
          `Mail not sent (no mail host is set). Its text:\n${m.text}`,
        );
        return;
      }
      await sendThrough(mail, m);
    },
  };
}

/**
 * Sends one mail through the SMTP server of `mail` and returns the server's final answer (e.g.
 * `250 OK: queued as …`). A transport per mail: without pooling nodemailer holds no connection
 * between mails anyway, and settings may have changed since the last one.
 */
export async function sendThrough(mail: MailSettings, m: Mail): Promise<string> {
  const transport = nodemailer.createTransport({
    host: mail.host,
    port: mail.port,
    secure: mail.encryption === 'ssl',
    requireTLS: mail.encryption === 'tls',
    ignoreTLS: mail.encryption === 'none',
    auth: mail.username ? { user: mail.username, pass: mail.password ?? '' } : undefined,
    // nodemailer waits two minutes by default; an admin testing the settings waits for the answer.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    const info = await transport.sendMail({
      from: { name: mail.from.name, address: mail.from.address },
      ...m,
    });
    return info.response;
  } finally {
    transport.close();
  }
}
