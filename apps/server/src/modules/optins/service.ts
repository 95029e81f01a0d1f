import { isLanguage, translate } from '@stn/contracts/i18n';
import type {
  TOptinUser,
  TOptinUserExportQuery,
  TOptinUserListQuery,
  TOptinUserRequest,
} from '@stn/contracts/optins';
import { count, desc, eq, ilike, or } from 'drizzle-orm';
import { toCsv } from '../../platform/http/csv.ts';
import { notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { type Ctx, inTransaction, scope, targetAgency } from '../../platform/tenancy/context.ts';
import { agencyForHost } from '../agencies/service.ts';
import { normalizeHost } from '../sites/service.ts';
import { agencyAdmins } from '../users/service.ts';
import { optinUsers } from './tables.ts';

// The free-demo opt-in (issue 23; spec 000 §2 "Opt-in demo modal", §3 "Opt-in user", §5; spec 001
// POST and GET /v1/agencies/optin-users): a visitor of an agency's landing page leaves their details; the
// agency finds them in its list (and a CSV) and is e-mailed "New demo request".

type OptinRow = typeof optinUsers.$inferSelect;

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

const toOptinUser = (r: OptinRow): TOptinUser => ({
  id: r.id,
  email: r.email,
  full_name: r.full_name,
  business_name: r.business_name,
  phone: r.phone,
  domain: r.domain,
  created_at: r.created_at.toISOString(),
});

/**
 * POST /v1/agencies/optin-users (public): stores the request for the agency whose site `host` is (an unknown
 * or inactive site: 404) and queues the agency's mail in the same transaction (the worker sends it once
 * committed): to the agency's e-mail address, else to its enabled AgencyAdmins.
 */
export async function createOptinUser(
  ctx: Ctx,
  input: Omit<TOptinUserRequest, 'domain'> & { host: string },
): Promise<TOptinUser> {
  const { agency } = await agencyForHost(ctx, { host: input.host });
  if (!agency) throw notFound();
  const domain = normalizeHost(input.host);
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(optinUsers)
      .values({
        agency_id: agency.id,
        email: input.email,
        full_name: input.full_name,
        business_name: input.business_name,
        phone: input.phone,
        domain,
      })
      .returning();
    if (!row) throw new Error('optin_users insert returned nothing');
    const admins = (await agencyAdmins(tx, { agencyIds: [agency.id] })).filter((u) => u.active);
    const own = agency.email?.trim();
    const recipients =
      own && EMAIL.test(own)
        ? [{ email: own, lang: langOf(admins[0]?.settings.language) }]
        : admins.map((u) => ({ email: u.email, lang: langOf(u.settings.language) }));
    for (const to of recipients) {
      const line = (key: string, value: string) => translate(`optins.${key}`, to.lang, { value });
      await ctx.deps.mailer.send(
        {
          to: to.email,
          agencyId: agency.id,
          subject: translate('optins.mail_subject', to.lang),
          text: [
            translate('optins.mail_intro', to.lang, { domain }),
            '',
            line('mail_email', row.email),
            line('mail_full_name', row.full_name),
            line('mail_business_name', row.business_name),
            line('mail_phone', row.phone),
            line('mail_domain', row.domain),
          ].join('\n'),
        },
        tx.db,
      );
    }
    if (recipients.length === 0) ctx.deps.log.warn({ agencyId: agency.id }, 'opt-in: no address to e-mail');
    return toOptinUser(row);
  });
}

const langOf = (l: unknown) => (isLanguage(l) ? l : 'en');

function whereOf(ctx: Ctx, q: { keyword?: string | undefined; agency_id?: number | undefined }) {
  const agencyId = targetAgency(ctx, q.agency_id);
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  return scope(
    ctx,
    { agency_id: optinUsers.agency_id },
    eq(optinUsers.agency_id, agencyId),
    kw
      ? or(
          ilike(optinUsers.email, kw),
          ilike(optinUsers.full_name, kw),
          ilike(optinUsers.business_name, kw),
          ilike(optinUsers.phone, kw),
        )
      : undefined,
  );
}

/** GET /v1/agencies/optin-users: the agency's demo requests, newest first (keyword over the four fields). */
export async function listOptinUsers(ctx: Ctx, q: TOptinUserListQuery) {
  const where = whereOf(ctx, q);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(optinUsers)
      .where(where)
      .orderBy(desc(optinUsers.created_at), desc(optinUsers.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(optinUsers).where(where),
  ]);
  return listEnvelope(rows.map(toOptinUser), total?.n ?? 0, q);
}

/** GET /v1/agencies/optin-users/export: the same rows as a CSV document (formulas neutralised). */
export async function exportOptinUsers(ctx: Ctx, q: TOptinUserExportQuery) {
  const agencyId = targetAgency(ctx, q.agency_id);
  const rows = await ctx.db
    .select()
    .from(optinUsers)
    .where(whereOf(ctx, q))
    .orderBy(desc(optinUsers.created_at), desc(optinUsers.id));
  const csv = toCsv(
    ['id', 'email', 'full_name', 'business_name', 'phone', 'domain', 'created_at'],
    rows.map((r) => [r.id, r.email, r.full_name, r.business_name, r.phone, r.domain, r.created_at]),
  );
  return { csv, filename: `agency-${agencyId}-optin-users.csv` };
}
