import { and, eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '../../platform/db/client.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Mailer } from '../../platform/mail.ts';
import { defineJob, type JobDef, type Queue } from '../../platform/queue/queue.ts';
import { mailOutbox } from './tables.ts';

const ZMailJob = z.object({ outboxId: z.number().int().positive() });

/** The address of a From setting ('Start Texting Now <no-reply@localhost>' gives no-reply@localhost). */
export function addressOf(from: string): string {
  return from.match(/<([^<>]+)>\s*$/)?.[1]?.trim() ?? from.trim();
}

/**
 * A From header of `name` at the address of `from`: control characters go (no header injection), and a
 * name with characters that mean something in an address header is quoted.
 */
export function senderOf(name: string | null | undefined, from: string): string {
  const clean = (name ?? '')
    .replace(/\p{Cc}+/gu, ' ')
    .trim()
    .slice(0, 100);
  if (!clean) return from;
  const quoted = /[()<>[\]:;@\\,."]/.test(clean) ? `"${clean.replace(/["\\]/g, '\\$&')}"` : clean;
  return `${quoted} <${addressOf(from)}>`;
}

/** A Reply-To address: one plain address, or none. */
function replyToOf(address: string | null | undefined): string | null {
  const a = address?.trim();
  return a && /^[^\s<>,;"]+@[^\s<>,;"]+$/.test(a) ? a : null;
}

const outboxRow = prepared((db) =>
  db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.id, slot('id'))),
);

const markStored = prepared((db) =>
  db
    .update(mailOutbox)
    .set({ status: 'stored' })
    .where(eq(mailOutbox.id, slot('id'))),
);

/** The queued message; `attachments` is given as its JSON text (a jsonb value). */
const insertOutbox = prepared((db) =>
  db
    .insert(mailOutbox)
    .values({
      agency_id: slot('agency_id'),
      business_id: slot('business_id'),
      to: slot('to'),
      from: slot('from'),
      reply_to: slot('reply_to'),
      subject: slot('subject'),
      text: slot('text'),
      html: slot('html'),
      attachments: slot('attachments'),
      status: slot('status'),
    })
    .returning({ id: mailOutbox.id }),
);

/**
 * Every message is kept in mail_outbox: queued when asked for, then `sent` or, once the retries are spent,
 * `failed`. The `mail.send` job delivers it; a failed attempt is retried with backoff, and a sent message is
 * never sent again. Without SMTP_URL the outbox is the delivery (an admin reads it): a message is `stored`
 * as it is written, and no job is needed (a row queued before a restart without SMTP is stored by its job).
 */
export function createMailer(opts: {
  db: Db;
  queue: Queue;
  smtpUrl?: string;
  from: string;
  log: Logger;
  retry?: { limit: number; delaySeconds: number };
}): Mailer {
  const transport: Transporter | undefined = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : undefined;

  const job = defineJob({
    name: 'mail.send',
    payload: ZMailJob,
    retry: {
      limit: opts.retry?.limit ?? 8,
      delaySeconds: opts.retry?.delaySeconds ?? 30,
      backoff: true,
    },
    async handler(_deps, { outboxId }, run) {
      const [row] = await outboxRow(opts.db, { id: outboxId });
      // Delivered already (a job repeated after a crash): exactly once.
      if (row?.status !== 'queued') return;
      if (!transport) {
        await markStored(opts.db, { id: outboxId });
        return;
      }
      try {
        const info = await transport.sendMail({
          from: row.from,
          ...(row.reply_to ? { replyTo: row.reply_to } : {}),
          to: row.to,
          subject: row.subject,
          text: row.text,
          ...(row.html ? { html: row.html } : {}),
          ...(row.attachments.length > 0
            ? {
                attachments: row.attachments.map((a) => ({
                  filename: a.filename,
                  content: a.content,
                  contentType: a.contentType,
                })),
              }
            : {}),
        });
        // A delivered message's body and files (a reset link, a report) are not kept: the outbox records that
        // it went, not what it said.
        await opts.db
          .update(mailOutbox)
          .set({
            status: 'sent',
            text: '',
            html: null,
            attachments: [],
            error: null,
            message_id: info.messageId ?? null,
          })
          .where(and(eq(mailOutbox.id, outboxId), eq(mailOutbox.status, 'queued')));
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        opts.log.error({ err, to: row.to, attempt: run.retryCount + 1 }, 'mail delivery failed');
        await opts.db
          .update(mailOutbox)
          .set({ error, ...(run.isLastAttempt ? { status: 'failed' as const } : {}) })
          .where(eq(mailOutbox.id, outboxId));
        throw err;
      }
    },
  });

  const send: Mailer['send'] = async (message, db = opts.db) => {
    // Outside a transaction, the message and its delivery job are written in one of their own: never a
    // queued message without its job.
    if (transport && db === opts.db) {
      await opts.db.transaction((tx) => send(message, tx));
      opts.queue.committed(job.name);
      return;
    }
    const [row] = await insertOutbox(db, {
      agency_id: message.agencyId ?? null,
      business_id: message.businessId ?? null,
      to: message.to,
      from: senderOf(message.fromName, opts.from),
      reply_to: replyToOf(message.replyTo),
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      attachments: JSON.stringify(message.attachments ?? []),
      status: transport ? 'queued' : 'stored',
    });
    if (!row) throw new Error('mail_outbox insert returned nothing');
    if (!transport) return;
    // The caller's commit announces the job (or the database's notification does, ADR 106).
    await opts.queue.send(db, job, { outboxId: row.id });
  };
  return {
    job: job as JobDef,
    send,
    close() {
      transport?.close();
    },
  };
}
