import nodemailer, { type Transporter } from 'nodemailer';
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

/**
 * SMTP when MAIL_HOST is set; otherwise the mail is written to the log, so someone running the
 * panel on their own machine can still follow a password-reset link.
 */
export function createMailer(config: Config, log: Logger): Mailer {
  const { mail } = config;
  if (!mail.host) {
    return {
      async send(m) {
        log.info({ to: m.to, subject: m.subject }, `Mail not sent (MAIL_HOST is not set). Its text:\n${m.text}`);
      },
    };
  }
  const transport: Transporter = nodemailer.createTransport({
    host: mail.host,
    port: mail.port,
    secure: mail.encryption === 'ssl',
    requireTLS: mail.encryption === 'tls',
    ignoreTLS: mail.encryption === 'none',
    auth: mail.username ? { user: mail.username, pass: mail.password ?? '' } : undefined,
  });
  return {
    async send(m) {
      await transport.sendMail({ from: { name: mail.from.name, address: mail.from.address }, ...m });
    },
  };
}
