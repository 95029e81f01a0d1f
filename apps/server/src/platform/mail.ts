import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { mailOutbox } from '../modules/notifications/tables.ts';
import type { Db } from './db/client.ts';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  agencyId?: number | null;
  businessId?: number | null;
};

export type Mailer = { send(message: MailMessage): Promise<void>; close(): void };

/**
 * Sends through SMTP when SMTP_URL is set. Every message is also kept in mail_outbox: with no SMTP it is
 * the outbox an admin reads; with SMTP it records what was sent or why it failed.
 */
export function createMailer(opts: { db: Db; smtpUrl?: string; from: string; log: Logger }): Mailer {
  const transport: Transporter | undefined = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : undefined;
  return {
    async send(message) {
      let status: 'stored' | 'sent' | 'failed' = 'stored';
      let error: string | null = null;
      let messageId: string | null = null;
      if (transport) {
        try {
          const info = await transport.sendMail({
            from: opts.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
          });
          status = 'sent';
          messageId = info.messageId ?? null;
        } catch (err) {
          status = 'failed';
          error = err instanceof Error ? err.message : String(err);
          opts.log.error({ err, to: message.to }, 'mail delivery failed');
        }
      }
      await opts.db.insert(mailOutbox).values({
        agency_id: message.agencyId ?? null,
        business_id: message.businessId ?? null,
        to: message.to,
        from: opts.from,
        subject: message.subject,
        // A delivered message's body (it may hold a reset link) is not kept: the outbox records that it
        // went, not what it said. Without SMTP the outbox is the delivery, so the body stays.
        text: status === 'sent' ? '' : message.text,
        status,
        error,
        message_id: messageId,
      });
    },
    close() {
      transport?.close();
    },
  };
}
