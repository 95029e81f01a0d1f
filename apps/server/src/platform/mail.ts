import type { Tx } from './db/client.ts';
import type { JobDef } from './queue/queue.ts';

/** A file sent with a message (a report's CSV): text content, kept in the outbox until delivered. */
export type MailAttachment = { filename: string; content: string; contentType: string };

export type MailMessage = {
  to: string;
  subject: string;
  /** The plain-text body (the alternative when there is `html`). */
  text: string;
  /** An HTML body; every value in it must be escaped by the caller. */
  html?: string | null;
  attachments?: MailAttachment[];
  agencyId?: number | null;
  businessId?: number | null;
  /** The sender's name (an agency's mail carries the agency's name); the address stays MAIL_FROM's. */
  fromName?: string | null;
  /** Where answers go (an agency's support address). */
  replyTo?: string | null;
};

/**
 * What services send mail through (deps.mailer). The notifications module implements it: it owns the
 * outbox and the `mail.send` job that delivers (ADR 015).
 */
export type Mailer = {
  /**
   * Records the message in mail_outbox and enqueues its delivery, both through `db` (pass the caller's
   * transaction so that a rolled-back change sends nothing). Never waits on SMTP.
   */
  send(message: MailMessage, db?: Tx): Promise<void>;
  /** The `mail.send` job, registered on the queue by app.ts. */
  job: JobDef;
  close(): void;
};
