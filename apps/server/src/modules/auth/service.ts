// The auth module's public functions: sign-in, password reset, e-mail verification, unsubscribe and
// notification mails. Sessions live in platform/auth/sessions; the user rows are the users module's.
import { isLanguage, translate } from '@stn/contracts/i18n';
import type { TRoleGroup } from '@stn/contracts/roles';
import { and, eq, gt, or, sql } from 'drizzle-orm';
import {
  consumeLink,
  endLinks,
  findLink,
  issueLink,
  type LinkPurpose,
  type LinkRow,
  linksSentSince,
} from '../../platform/auth/links.ts';
import { burnPasswordCheck, verifyPassword } from '../../platform/auth/passwords.ts';
import { issueToken, type SessionClient } from '../../platform/auth/sessions.ts';
import type { Tx } from '../../platform/db/client.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import type { MailSite } from '../../platform/ports.ts';
import { type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import {
  confirmEmailChange,
  findUserByEmail,
  getUser,
  markEmailVerified,
  mergeSettings,
  refuseImpersonation,
  setPassword,
  type UserRow,
} from '../users/service.ts';
import { loginFailures } from './tables.ts';

export { startImpersonation } from './impersonation.ts';

const VERIFY_TTL_SECONDS = 7 * 24 * 3600;
// At most this many reset e-mails per account per hour; more requests answer the same but send nothing.
const RESET_MAILS_PER_HOUR = 5;

/** A usable link of that purpose, with its user (not spent: the screens ask before the form is sent). */
async function findUserToken(ctx: Ctx, token: string, purposes: LinkPurpose[]) {
  const row = await findLink(ctx.db, token, purposes);
  const user = row ? await getUser(ctx, row.user_id) : undefined;
  return row && user ? { token: row, user } : undefined;
}

/** Spends a link (atomically: used twice at the same moment, it works once), with its user. */
async function spendUserToken(ctx: Ctx, token: string, purposes: LinkPurpose[]) {
  const row: LinkRow | undefined = await consumeLink(ctx.db, token, purposes);
  const user = row ? await getUser(ctx, row.user_id) : undefined;
  return row && user ? { token: row, user } : undefined;
}

/** Where a user's mail comes from (the agencies module answers, through the accounts port). */
const siteFor = (ctx: Ctx, user: UserRow) =>
  ctx.deps.ports.accounts.mailSite(ctx, { agencyId: user.agency_id });

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

/**
 * Reserves one sign-in attempt of the account and the address, atomically: under a lock per account and
 * per address (held for the count and the insert only, never during the password check), the failures in
 * the window are counted and, below the limits, this attempt is recorded as one. So N parallel wrong
 * passwords get exactly LOGIN_MAX_FAILURES_PER_ACCOUNT password checks. Answers the reservation's id, or
 * null when locked.
 */
async function reserveAttempt(ctx: Ctx, email: string, ip: string): Promise<number | null> {
  const { config } = ctx.deps;
  return inTransaction(ctx, async (tx) => {
    // Two-key advisory locks in separate namespaces (account 7301, address 7302), always in that order.
    await tx.db.execute(sql`select pg_advisory_xact_lock(7301, hashtext(${email}))`);
    await tx.db.execute(sql`select pg_advisory_xact_lock(7302, hashtext(${ip}))`);
    const failures = await recentFailures(tx.db, email, ip, config.loginLockSeconds);
    if (
      failures.account >= config.loginMaxFailuresPerAccount ||
      failures.address >= config.loginMaxFailuresPerAddress
    )
      return null;
    const [row] = await tx.db.insert(loginFailures).values({ email, ip }).returning({ id: loginFailures.id });
    return row?.id ?? null;
  });
}

/** Signs in (ctx: linkHolderContext): throttled per account and per address. */
export async function login(
  ctx: Ctx,
  input: { email: string; password: string; client: SessionClient },
): Promise<{ token: string; expiresAt: Date; roleGroup: TRoleGroup }> {
  const { db } = ctx;
  const { config } = ctx.deps;
  const email = input.email.toLowerCase();
  // The attempt counts as a failure from before the password is checked; a success clears it.
  const attempt = await reserveAttempt(ctx, email, input.client.ip);
  if (attempt === null) {
    const minutes = Math.max(1, Math.ceil(config.loginLockSeconds / 60));
    throw new AppError('TOO_MANY', 'auth.throttle', undefined, { count: minutes }, 'auth.throttle');
  }
  const user = await findUserByEmail(ctx, email);
  let ok = false;
  if (user) ok = await verifyPassword(user.password_hash, input.password);
  else await burnPasswordCheck(input.password);
  if (!user || !ok) throw invalid('email', 'auth.failed');
  // A switched-off, archived or deleted business or agency locks its users out (as the session check).
  const accountOk = await ctx.deps.ports.accounts.letsIn(ctx, {
    agencyId: user.agency_id,
    businessId: user.business_id,
  });
  if (!user.active || !accountOk) {
    // The right password of a disabled account is not a guess: its reservation goes.
    await db.delete(loginFailures).where(eq(loginFailures.id, attempt));
    throw invalid('email', 'auth.inactive');
  }
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

/** Sends a user mail in the caller's transaction, as the user's agency (white-label sender, Reply-To). */
async function mailUser(
  ctx: Ctx,
  user: UserRow,
  site: MailSite,
  mail: { subject: string; text: string },
): Promise<void> {
  await ctx.deps.mailer.send(
    { to: user.email, agencyId: user.agency_id, businessId: user.business_id, ...site.sender, ...mail },
    ctx.db,
  );
}

/**
 * E-mails a reset link to the account of that address, if there is an enabled one. The public route does
 * not call this in the request: it enqueues `auth.password_reset_request` (see jobs.ts), so that the
 * answer takes the same time whether or not the address is known. Managers' "send a reset link" call it.
 */
export async function requestPasswordReset(ctx: Ctx, input: { email: string }): Promise<void> {
  refuseImpersonation(ctx);
  const { db, deps } = ctx;
  const user = await findUserByEmail(ctx, input.email);
  if (!user?.active) return;
  const hourAgo = new Date(Date.now() - 3600_000);
  if ((await linksSentSince(db, user.id, 'password_reset', hourAgo)) >= RESET_MAILS_PER_HOUR) return;
  // Only the newest link works.
  await endLinks(db, user.id, ['password_reset']);
  const token = await issueLink(db, {
    user,
    purpose: 'password_reset',
    ttlSeconds: deps.config.passwordResetTtlSeconds,
  });
  const site = await siteFor(ctx, user);
  const link = `${site.url}/password/reset?token=${token}&email=${encodeURIComponent(user.email)}`;
  const lang = langOf(user);
  await mailUser(ctx, user, site, {
    subject: translate('mail.reset_subject', lang, { site: site.title }),
    text: translate('mail.reset_body', lang, {
      name: nameOf(user),
      site: site.title,
      link,
      minutes: translate('mail.minutes', lang, {
        count: Math.round(deps.config.passwordResetTtlSeconds / 60),
      }),
    }),
  });
}

/**
 * Invites a user created without a password (an agency's admin, a business's owner) to choose one: a
 * welcome from the agency, with its name and support address, and a link valid INVITATION_TTL_DAYS days
 * that opens the set-password screen. A new invitation ends the older ones.
 */
export async function sendInvitation(ctx: Ctx, input: { email: string }): Promise<void> {
  const { db, deps } = ctx;
  const user = await findUserByEmail(ctx, input.email);
  if (!user) return;
  const days = deps.config.invitationTtlDays;
  await endLinks(db, user.id, ['invitation']);
  const token = await issueLink(db, { user, purpose: 'invitation', ttlSeconds: days * 24 * 3600 });
  const site = await siteFor(ctx, user);
  const link = `${site.url}/password/reset?token=${token}&email=${encodeURIComponent(user.email)}&invitation=1`;
  const lang = langOf(user);
  const support = site.support
    ? translate('mail.invite_support', lang, { support: site.support })
    : translate('mail.invite_support_none', lang, { agency: site.name });
  await mailUser(ctx, user, site, {
    subject: translate('mail.invite_subject', lang, { site: site.title, agency: site.name }),
    text: translate('mail.invite_body', lang, {
      name: nameOf(user),
      agency: site.name,
      site: site.title,
      link,
      days: translate('mail.days', lang, { count: days }),
      support,
    }),
  });
}

/** The links that set a password: a reset link, or an invitation. */
const PASSWORD_LINKS: LinkPurpose[] = ['password_reset', 'invitation'];

export async function verifyResetToken(ctx: Ctx, input: { token: string; email?: string }) {
  const row = await findUserToken(ctx, input.token, PASSWORD_LINKS);
  if (!row || (input.email && row.user.email.toLowerCase() !== input.email.toLowerCase())) {
    throw invalid('token', 'auth.reset_token_invalid');
  }
  return row;
}

/**
 * A new password from a reset link or an invitation: the link is spent (once, even when sent twice at
 * the same moment), every session of the account ends, and so does every other link (users/service).
 */
export async function resetPassword(
  ctx: Ctx,
  input: { token: string; email: string; password: string },
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const row = await spendUserToken(tx, input.token, PASSWORD_LINKS);
    // A wrong address throws, and the rollback leaves the link unspent.
    if (!row || row.user.email.toLowerCase() !== input.email.toLowerCase()) {
      throw invalid('token', 'auth.reset_token_invalid');
    }
    await setPassword(tx, { user: row.user, password: input.password });
    // Following an invitation (or a reset link) proves the address too.
    if (row.user.email_verified_at === null) await markEmailVerified(tx, { id: row.user.id });
    await tx.db.delete(loginFailures).where(eq(loginFailures.email, row.user.email.toLowerCase()));
  });
}

export async function sendEmailVerification(ctx: Ctx, input: { user: UserRow }): Promise<void> {
  const { user } = input;
  const token = await issueLink(ctx.db, {
    user,
    purpose: 'verify_email',
    ttlSeconds: VERIFY_TTL_SECONDS,
    email: user.email,
  });
  const site = await siteFor(ctx, user);
  const lang = langOf(user);
  await mailUser(ctx, user, site, {
    subject: translate('mail.verify_subject', lang, { site: site.title }),
    text: translate('mail.verify_body', lang, {
      name: nameOf(user),
      site: site.title,
      link: `${site.url}/email-verify?token=${token}`,
    }),
  });
}

/**
 * A link from an e-mail was followed: a `verify_email` link confirms the user's address; an `email_change`
 * link makes its new address the user's (ADR 050). Answers the new address when it changed.
 */
export async function verifyEmail(ctx: Ctx, input: { token: string }): Promise<{ changedTo: string | null }> {
  const result = await inTransaction(ctx, async (tx) => {
    const row = await spendUserToken(tx, input.token, ['verify_email', 'email_change']);
    if (row?.token.purpose === 'email_change' && row.token.email) {
      // Taken by another account meanwhile: the link is spent all the same (the change cannot happen).
      const changed = await confirmEmailChange(tx, { userId: row.user.id, email: row.token.email });
      return { changedTo: row.token.email, taken: !changed };
    }
    // A link sent to an address the user has since changed no longer verifies anything (the change ended
    // it already; this is the second lock on that door).
    if (!row || row.token.email?.toLowerCase() !== row.user.email.toLowerCase()) {
      throw invalid('token', 'auth.verify_token_invalid');
    }
    await markEmailVerified(tx, { id: row.user.id });
    return { changedTo: null, taken: false };
  });
  if (result.taken) throw invalid('token', 'auth.email_change_taken');
  return { changedTo: result.changedTo };
}

/**
 * A user's e-mail is to change (users' `emailChangeRequested`): the link goes to the new address, and the
 * old one is told, without a link, so that a change the owner did not ask for does not go unnoticed.
 */
export async function mailEmailChange(
  ctx: Ctx,
  input: { userId: number; token: string; from: string; to: string },
): Promise<void> {
  const user = await getUser(ctx, input.userId);
  if (!user) return;
  const site = await siteFor(ctx, user);
  const lang = langOf(user);
  const texts = { name: nameOf(user), site: site.title, email: input.to };
  await mailUser(ctx, { ...user, email: input.to }, site, {
    subject: translate('mail.email_change_subject', lang, texts),
    text: translate('mail.email_change_body', lang, {
      ...texts,
      link: `${site.url}/email-verify?token=${input.token}`,
    }),
  });
  await mailUser(ctx, { ...user, email: input.from }, site, {
    subject: translate('mail.email_change_notice_subject', lang, texts),
    text: translate('mail.email_change_notice_body', lang, texts),
  });
}

/** Who a reset, invitation or verification link is for, so that its screen can greet them. */
export async function userInfo(ctx: Ctx, input: { token: string }) {
  const row = await findUserToken(ctx, input.token, [...PASSWORD_LINKS, 'verify_email', 'email_change']);
  if (!row) throw invalid('token', 'auth.reset_token_invalid');
  return {
    // A change's link greets the user at the address it confirms.
    email: row.token.purpose === 'email_change' ? (row.token.email ?? row.user.email) : row.user.email,
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
  const user = await getUser(ctx, input.userId);
  if (!user || user.settings.email_unsubscribed) return false;
  const token = await issueLink(ctx.db, { user, purpose: 'unsubscribe', ttlSeconds: null });
  const site = await siteFor(ctx, user);
  const footer = translate('mail.unsubscribe_footer', langOf(user), {
    link: `${site.url}/unsubscribe/email/${token}`,
  });
  await mailUser(ctx, user, site, {
    subject: input.subject,
    text: `${input.text}\n\n--\n${footer}`,
  });
  return true;
}

/**
 * Signs a user in without a password: the owner of an account a sign-up (order page) has just made, in
 * the caller's transaction. The answer is the sign-in's (POST /v1/login).
 */
export async function startSession(
  ctx: Ctx,
  input: { userId: number; client: SessionClient },
): Promise<{ token: string; expiresAt: Date; roleGroup: TRoleGroup }> {
  const user = await getUser(ctx, input.userId);
  if (!user?.active) throw invalid('email', 'auth.inactive');
  const issued = await issueToken(ctx.db, {
    userId: user.id,
    agencyId: user.agency_id,
    businessId: user.business_id,
    ttlSeconds: ctx.deps.config.accessTokenTtlSeconds,
    client: input.client,
  });
  return { token: issued.token, expiresAt: issued.expiresAt, roleGroup: user.role_group };
}
