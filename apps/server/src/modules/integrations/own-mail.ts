// Mail a business (or an agency) sends through its own e-mail (ADR 090): its default SMTP account, else
// its SendGrid integration. `sendOwnMail` records the message in own_mail and enqueues the `own-mail.send`
// job through the caller's transaction (queued exactly when the caller's change commits) and answers
// false when the owner has neither (the caller then uses the platform's mailer). The job sends, retries
// with backoff, and drops the body once sent (the row keeps to, subject, status and the message id).
import { and, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { OwnMailMessage } from '../../platform/ports.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { type Ctx, inTransaction, platformSystemContext } from '../../platform/tenancy/context.ts';
import { businessSendgridEnabled } from '../businesses/service.ts';
import { type MailOwner, sendingAccount, sendingIntegration } from './mail-service.ts';
import { MailTransportError, type OutgoingMail, sendgridFor, sendSmtp } from './mail-transport.ts';
import { emailAccounts, ownMail, userIntegrations } from './tables.ts';

const oneLine = (s: string) =>
  s
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, 191);

/** The SendGrid integration counts for a business only while its agency lets it use SendGrid. */
async function sendgridAllowed(ctx: Ctx, owner: MailOwner): Promise<boolean> {
  if (owner.businessId === null) return true;
  const t = ctx.tenant;
  if (t.level !== 'business' || t.businessId !== owner.businessId) return false;
  return businessSendgridEnabled(ctx);
}

/**
 * Queues the message through the owner's own e-mail; false (nothing written) when it has none. `db` is
 * the caller's transaction when it has one.
 */
export async function sendOwnMail(ctx: Ctx, input: OwnMailMessage, db?: Tx): Promise<boolean> {
  const owner: MailOwner = { agencyId: input.agencyId, businessId: input.businessId };
  const account = await sendingAccount(ctx, owner);
  const integration = account
    ? null
    : (await sendgridAllowed(ctx, owner))
      ? await sendingIntegration(ctx, owner)
      : null;
  if (!account && !integration) return false;
  const config = (integration?.config ?? {}) as { from_email?: string; from_name?: string };
  const fromEmail = account?.from_email ?? config.from_email ?? '';
  const fromName = (account?.from_name || config.from_name || input.fromName || '').trim();
  // The message and its job are written together: in the caller's transaction, else in one of their own.
  if (!db) {
    await inTransaction(ctx, (tx) =>
      writeOwnMail(tx, owner, input, { account, integration, fromEmail, fromName }),
    );
    ctx.deps.queue.committed(ownMailJob.name);
  } else await writeOwnMail({ ...ctx, db }, owner, input, { account, integration, fromEmail, fromName });
  return true;
}

async function writeOwnMail(
  ctx: Ctx,
  owner: MailOwner,
  input: OwnMailMessage,
  via: {
    account: { id: number } | null;
    integration: { id: number } | null;
    fromEmail: string;
    fromName: string;
  },
): Promise<void> {
  const { account, integration, fromEmail, fromName } = via;
  const [row] = await ctx.db
    .insert(ownMail)
    .values({
      agency_id: owner.agencyId,
      business_id: owner.businessId,
      email_account_id: account?.id ?? null,
      user_integration_id: integration?.id ?? null,
      contact_id: input.contactId ?? null,
      user_id: ctx.by.kind === 'user' ? ctx.by.actor.userId : null,
      source: input.source,
      to: input.to.trim(),
      from: fromName ? `${fromName} <${fromEmail}>` : fromEmail,
      reply_to: input.replyTo ?? null,
      subject: oneLine(input.subject),
      text: input.text,
      html: input.html ?? null,
    })
    .returning({ id: ownMail.id });
  if (!row) throw new Error('own mail not inserted');
  await ctx.deps.queue.send(ctx.db, ownMailJob, { id: row.id });
}

/**
 * The platform's mailer, with the agency's own mail (a message of an agency and no business: its users'
 * invitations, password resets and e-mail changes, opt-in notices) sent through the agency's own SMTP
 * account when it has one (agency integrations, ADR 090). Messages with files stay on the platform's mail.
 */
export function withAgencyOwnMail(inner: Mailer, depsOf: () => Deps): Mailer {
  return {
    job: inner.job,
    close: () => inner.close(),
    async send(message, db) {
      if (message.agencyId && !message.businessId && !message.attachments?.length) {
        const ctx = platformSystemContext(depsOf(), 'job', 'agency mail');
        const own = await sendOwnMail(
          ctx,
          {
            agencyId: message.agencyId,
            businessId: null,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html ?? null,
            replyTo: message.replyTo ?? null,
            fromName: message.fromName ?? null,
            source: 'agency',
          },
          db,
        );
        if (own) return;
      }
      await inner.send(message, db);
    },
  };
}

/** The owner's mail sent through its own e-mail, newest first (the settings card's "recent mail"). */
export async function recentOwnMail(ctx: Ctx, owner: MailOwner, limit = 20) {
  const rows = await ctx.db
    .select({
      id: ownMail.id,
      to: ownMail.to,
      subject: ownMail.subject,
      source: ownMail.source,
      status: ownMail.status,
      error: ownMail.error,
      via: ownMail.email_account_id,
      created_at: ownMail.created_at,
      sent_at: ownMail.sent_at,
    })
    .from(ownMail)
    .where(
      and(
        eq(ownMail.agency_id, owner.agencyId),
        owner.businessId === null ? isNull(ownMail.business_id) : eq(ownMail.business_id, owner.businessId),
      ),
    )
    .orderBy(desc(ownMail.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    to: r.to,
    subject: r.subject,
    source: r.source,
    status: r.status,
    error: r.error,
    via: r.via === null ? ('sendgrid' as const) : ('smtp' as const),
    created_at: r.created_at.toISOString(),
    sent_at: r.sent_at?.toISOString() ?? null,
  }));
}

/** Splits `Name <a@b>` back into its parts. */
function fromParts(from: string): { email: string; name: string } {
  const m = /^(.*) <([^>]+)>$/.exec(from);
  return m ? { name: m[1] ?? '', email: m[2] ?? '' } : { name: '', email: from };
}

async function deliver(deps: Deps, id: number): Promise<{ messageId: string | null } | 'done'> {
  const [row] = await deps.db.select().from(ownMail).where(eq(ownMail.id, id));
  // Sent already (a job repeated after a crash), or gone: exactly once.
  if (row?.status !== 'queued') return 'done';
  const mail: OutgoingMail = {
    from: fromParts(row.from),
    to: row.to,
    replyTo: row.reply_to,
    subject: row.subject,
    text: row.text,
    html: row.html,
  };
  if (row.email_account_id !== null) {
    const [account] = await deps.db
      .select()
      .from(emailAccounts)
      .where(and(eq(emailAccounts.id, row.email_account_id), eq(emailAccounts.agency_id, row.agency_id)));
    if (!account) throw new MailTransportError('refused', 'the e-mail account was deleted');
    const messageId = await sendSmtp(
      deps.config,
      {
        host: account.host,
        port: account.port,
        security: account.security,
        username: account.username,
        password: account.password ? deps.secrets.open(account.password) : '',
      },
      mail,
    );
    return { messageId };
  }
  const [integration] = await deps.db
    .select()
    .from(userIntegrations)
    .where(
      and(
        eq(userIntegrations.id, row.user_integration_id ?? 0),
        eq(userIntegrations.agency_id, row.agency_id),
      ),
    );
  if (!integration?.secret) throw new MailTransportError('refused', 'the SendGrid integration was deleted');
  const messageId = await sendgridFor(deps.config).send(deps.secrets.open(integration.secret), mail);
  return { messageId };
}

export const ownMailJob = defineJob({
  name: 'own-mail.send',
  payload: z.object({ id: z.number() }),
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  handler: async (deps: Deps, { id }, run) => {
    try {
      const sent = await deliver(deps, id);
      if (sent === 'done') return;
      await deps.db
        .update(ownMail)
        .set({
          status: 'sent',
          sent_at: new Date(),
          message_id: sent.messageId,
          error: null,
          text: '',
          html: null,
        })
        .where(and(eq(ownMail.id, id), eq(ownMail.status, 'queued')));
    } catch (err) {
      const message = (err as Error).message.slice(0, 500);
      if (run.isLastAttempt) {
        // Given up: the body is dropped as well; the row says why.
        await deps.db
          .update(ownMail)
          .set({ status: 'failed', error: message, text: '', html: null })
          .where(eq(ownMail.id, id));
        deps.log.warn({ err, ownMailId: id }, 'own mail: given up');
        return;
      }
      await deps.db.update(ownMail).set({ error: message }).where(eq(ownMail.id, id));
      throw err;
    }
  },
});
