// The auth module's public functions: sign-in, password reset, e-mail verification, unsubscribe and
// notification mails. Sessions live in platform/auth/sessions; the user rows are the users module's.
import { isLanguage, translate } from '@stn/contracts/i18n';
import type { TRoleGroup } from '@stn/contracts/roles';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { burnPasswordCheck, verifyPassword } from '../../platform/auth/passwords.ts';
import { issueToken, type SessionClient } from '../../platform/auth/sessions.ts';
import { hashToken, newToken } from '../../platform/auth/tokens.ts';
import type { Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { agencies } from '../agencies/tables.ts';
import { businesses } from '../businesses/tables.ts';
import { agencySiteUrl } from '../sites/service.ts';
import {
  findUserByEmail,
  getUser,
  markEmailVerified,
  mergeSettings,
  setPassword,
  type UserRow,
} from '../users/service.ts';
import { users } from '../users/tables.ts';
import { loginFailures, userTokens } from './tables.ts';

/**
 * The user's agency and business (where they have them) are active: a switched-off, archived or deleted
 * business or agency locks its users out (the session check asks the same, see app.ts).
 */
const accountActive = sql<boolean>`(${agencies.id} is null or (${agencies.active} and ${agencies.status} = 'active'))
  and (${businesses.id} is null or (${businesses.active} and ${businesses.status} = 'active'))`;

type Purpose = 'password_reset' | 'verify_email' | 'unsubscribe';

const VERIFY_TTL_SECONDS = 7 * 24 * 3600;
// At most this many reset e-mails per account per hour; more requests answer the same but send nothing.
const RESET_MAILS_PER_HOUR = 5;

async function createUserToken(
  db: Tx,
  user: UserRow,
  purpose: Purpose,
  ttlSeconds: number | null,
  email?: string,
) {
  const token = newToken();
  await db.insert(userTokens).values({
    token_hash: hashToken(token),
    user_id: user.id,
    agency_id: user.agency_id,
    business_id: user.business_id,
    purpose,
    email: email ?? null,
    expires_at: ttlSeconds === null ? null : new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

/** A usable token of that purpose, with its user. */
async function findUserToken(ctx: Ctx, token: string, purposes: Purpose[]) {
  const [row] = await ctx.db
    .select()
    .from(userTokens)
    .where(
      and(
        eq(userTokens.token_hash, hashToken(token)),
        inArray(userTokens.purpose, purposes),
        isNull(userTokens.used_at),
        or(isNull(userTokens.expires_at), gt(userTokens.expires_at, new Date())),
      ),
    )
    .limit(1);
  const user = row ? await getUser(ctx, row.user_id) : undefined;
  return row && user ? { token: row, user } : undefined;
}

async function siteFor(deps: Deps, user: UserRow) {
  const agency = user.agency_id
    ? (await deps.db.select().from(agencies).where(eq(agencies.id, user.agency_id)))[0]
    : (await deps.db.select().from(agencies).where(eq(agencies.is_main, true)))[0];
  return {
    url: agencySiteUrl(deps.config, agency),
    title: agency?.branding.title ?? agency?.name ?? 'Start Texting Now',
  };
}

const langOf = (user: UserRow) => (isLanguage(user.settings.language) ? user.settings.language : 'en');
const nameOf = (user: UserRow) => user.first_name || user.email;

/** Failed sign-ins inside the lock window, per account and per address. */
async function recentFailures(db: Tx, email: string, ip: string, windowSeconds: number) {
  const since = new Date(Date.now() - windowSeconds * 1000);
  const [row] = await db
    .select({
      account: sql<number>`count(*) filter (where ${loginFailures.email} = ${email})`.mapWith(Number),
      address: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})`.mapWith(Number),
      oldest: sql<Date | null>`min(${loginFailures.created_at}) filter (where ${loginFailures.email} = ${email})`,
    })
    .from(loginFailures)
    .where(
      and(gt(loginFailures.created_at, since), or(eq(loginFailures.email, email), eq(loginFailures.ip, ip))),
    );
  return row ?? { account: 0, address: 0, oldest: null };
}

/** Signs in (ctx: linkHolderContext): throttled per account and per address. */
export async function login(
  ctx: Ctx,
  input: { email: string; password: string; client: SessionClient },
): Promise<{ token: string; expiresAt: Date; roleGroup: TRoleGroup }> {
  const { db } = ctx;
  const { config } = ctx.deps;
  const email = input.email.toLowerCase();
  const failures = await recentFailures(db, email, input.client.ip, config.loginLockSeconds);
  if (
    failures.account >= config.loginMaxFailuresPerAccount ||
    failures.address >= config.loginMaxFailuresPerAddress
  ) {
    const minutes = Math.max(1, Math.ceil(config.loginLockSeconds / 60));
    throw new AppError('TOO_MANY', 'auth.throttle', undefined, { count: minutes }, 'auth.throttle');
  }
  const user = await findUserByEmail(ctx, email);
  let ok = false;
  if (user) ok = await verifyPassword(user.password_hash, input.password);
  else await burnPasswordCheck(input.password);
  if (!user || !ok) {
    await db.insert(loginFailures).values({ email, ip: input.client.ip });
    throw invalid('email', 'auth.failed');
  }
  const [account] = await db
    .select({ ok: accountActive })
    .from(users)
    .leftJoin(agencies, eq(agencies.id, users.agency_id))
    .leftJoin(businesses, eq(businesses.id, users.business_id))
    .where(eq(users.id, user.id));
  if (!user.active || !account?.ok) throw invalid('email', 'auth.inactive');
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
  const issued = await issueToken(db, {
    userId: user.id,
    agencyId: user.agency_id,
    businessId: user.business_id,
    ttlSeconds: config.accessTokenTtlSeconds,
    client: input.client,
  });
  return { token: issued.token, expiresAt: issued.expiresAt, roleGroup: user.role_group };
}

/** E-mails a reset link to the account of that address, if there is an enabled one (answers the same). */
export async function requestPasswordReset(ctx: Ctx, input: { email: string }): Promise<void> {
  const { db, deps } = ctx;
  const user = await findUserByEmail(ctx, input.email);
  if (!user?.active) return;
  const hourAgo = new Date(Date.now() - 3600_000);
  const [recent] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(userTokens)
    .where(
      and(
        eq(userTokens.user_id, user.id),
        eq(userTokens.purpose, 'password_reset'),
        gt(userTokens.created_at, hourAgo),
      ),
    );
  if ((recent?.n ?? 0) >= RESET_MAILS_PER_HOUR) return;
  // Only the newest link works.
  await db
    .update(userTokens)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(userTokens.user_id, user.id),
        eq(userTokens.purpose, 'password_reset'),
        isNull(userTokens.used_at),
      ),
    );
  const token = await createUserToken(db, user, 'password_reset', deps.config.passwordResetTtlSeconds);
  const site = await siteFor(deps, user);
  const link = `${site.url}/password/reset?token=${token}&email=${encodeURIComponent(user.email)}`;
  const lang = langOf(user);
  await deps.mailer.send({
    to: user.email,
    agencyId: user.agency_id,
    businessId: user.business_id,
    subject: translate('mail.reset_subject', lang, { site: site.title }),
    text: translate('mail.reset_body', lang, {
      name: nameOf(user),
      site: site.title,
      link,
      minutes: Math.round(deps.config.passwordResetTtlSeconds / 60),
    }),
  });
}

export async function verifyResetToken(ctx: Ctx, input: { token: string; email?: string }) {
  const row = await findUserToken(ctx, input.token, ['password_reset']);
  if (!row || (input.email && row.user.email.toLowerCase() !== input.email.toLowerCase())) {
    throw invalid('token', 'auth.reset_token_invalid');
  }
  return row;
}

/** A new password from a reset link: the link is spent and every session of the account ends. */
export async function resetPassword(
  ctx: Ctx,
  input: { token: string; email: string; password: string },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const row = await verifyResetToken(tx, input);
    await setPassword(tx, { user: row.user, password: input.password });
    await tx.db.update(userTokens).set({ used_at: new Date() }).where(eq(userTokens.id, row.token.id));
    await tx.db.delete(loginFailures).where(eq(loginFailures.email, row.user.email.toLowerCase()));
  });
}

export async function sendEmailVerification(ctx: Ctx, input: { user: UserRow }): Promise<void> {
  const { user } = input;
  const { deps } = ctx;
  const token = await createUserToken(ctx.db, user, 'verify_email', VERIFY_TTL_SECONDS, user.email);
  const site = await siteFor(deps, user);
  const lang = langOf(user);
  await deps.mailer.send({
    to: user.email,
    agencyId: user.agency_id,
    businessId: user.business_id,
    subject: translate('mail.verify_subject', lang, { site: site.title }),
    text: translate('mail.verify_body', lang, {
      name: nameOf(user),
      site: site.title,
      link: `${site.url}/email-verify?token=${token}`,
    }),
  });
}

export async function verifyEmail(ctx: Ctx, input: { token: string }): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const row = await findUserToken(tx, input.token, ['verify_email']);
    // A link sent to an address the user has since changed no longer verifies anything.
    if (!row || row.token.email?.toLowerCase() !== row.user.email.toLowerCase()) {
      throw invalid('token', 'auth.verify_token_invalid');
    }
    await markEmailVerified(tx, { id: row.user.id });
    await tx.db.update(userTokens).set({ used_at: new Date() }).where(eq(userTokens.id, row.token.id));
  });
}

/** Who a reset or verification link is for, so that its screen can greet them. */
export async function userInfo(ctx: Ctx, input: { token: string }) {
  const row = await findUserToken(ctx, input.token, ['password_reset', 'verify_email']);
  if (!row) throw invalid('token', 'auth.reset_token_invalid');
  return {
    email: row.user.email,
    first_name: row.user.first_name,
    last_name: row.user.last_name,
    purpose: row.token.purpose,
  };
}

export async function unsubscribe(ctx: Ctx, input: { token: string }): Promise<void> {
  const row = await findUserToken(ctx, input.token, ['unsubscribe']);
  if (!row) throw invalid('token', 'auth.unsubscribe_invalid');
  await mergeSettings(ctx, { id: row.user.id, settings: { email_unsubscribed: true } });
}

/**
 * Sends a notification e-mail (not a transactional one) to a user, with an unsubscribe link; nothing is
 * sent to a user who unsubscribed. Returns whether it was sent.
 */
export async function sendNotificationMail(
  ctx: Ctx,
  input: { userId: number; subject: string; text: string },
): Promise<boolean> {
  const { deps } = ctx;
  const user = await getUser(ctx, input.userId);
  if (!user || user.settings.email_unsubscribed) return false;
  const token = await createUserToken(ctx.db, user, 'unsubscribe', null);
  const site = await siteFor(deps, user);
  const footer = translate('mail.unsubscribe_footer', langOf(user), {
    link: `${site.url}/unsubscribe/email/${token}`,
  });
  await deps.mailer.send({
    to: user.email,
    agencyId: user.agency_id,
    businessId: user.business_id,
    subject: input.subject,
    text: `${input.text}\n\n--\n${footer}`,
  });
  return true;
}
