import { isLanguage, translate } from '@stn/contracts/i18n';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { hashToken, newToken } from '../../platform/auth/tokens.ts';
import type { Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { invalid } from '../../platform/http/errors.ts';
import { findUserByEmail } from '../accounts/service.ts';
import { agencies } from '../agencies/tables.ts';
import { agencySiteUrl } from '../sites/service.ts';
import { users } from '../users/tables.ts';
import { revokeAllTokens } from './service.ts';
import { loginFailures, userTokens } from './tables.ts';

type Purpose = 'password_reset' | 'verify_email' | 'unsubscribe';
type UserRow = typeof users.$inferSelect;

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
async function findUserToken(db: Tx, token: string, purposes: Purpose[]) {
  const [row] = await db
    .select({ token: userTokens, user: users })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.user_id))
    .where(
      and(
        eq(userTokens.token_hash, hashToken(token)),
        inArray(userTokens.purpose, purposes),
        isNull(userTokens.used_at),
        or(isNull(userTokens.expires_at), gt(userTokens.expires_at, new Date())),
      ),
    )
    .limit(1);
  return row;
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

export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const { db, config } = deps;
  const user = await findUserByEmail(db, email);
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
  const token = await createUserToken(db, user, 'password_reset', config.passwordResetTtlSeconds);
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
      minutes: Math.round(config.passwordResetTtlSeconds / 60),
    }),
  });
}

export async function verifyResetToken(db: Tx, token: string, email?: string) {
  const row = await findUserToken(db, token, ['password_reset']);
  if (!row || (email && row.user.email.toLowerCase() !== email.toLowerCase())) {
    throw invalid('token', 'auth.reset_token_invalid');
  }
  return row;
}

export async function resetPassword(
  deps: Deps,
  input: { token: string; email: string; password: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await verifyResetToken(tx, input.token, input.email);
    await tx
      .update(users)
      .set({
        password_hash: await hashPassword(input.password),
        password_changed_at: new Date(),
        updated_at: new Date(),
      })
      .where(eq(users.id, row.user.id));
    await tx.update(userTokens).set({ used_at: new Date() }).where(eq(userTokens.id, row.token.id));
    await tx.delete(loginFailures).where(eq(loginFailures.email, row.user.email.toLowerCase()));
    await revokeAllTokens(tx, row.user.id);
  });
}

export async function sendEmailVerification(deps: Deps, user: UserRow): Promise<void> {
  const token = await createUserToken(deps.db, user, 'verify_email', VERIFY_TTL_SECONDS, user.email);
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

export async function verifyEmail(db: Tx, token: string): Promise<void> {
  const row = await findUserToken(db, token, ['verify_email']);
  // A link sent to an address the user has since changed no longer verifies anything.
  if (!row || row.token.email?.toLowerCase() !== row.user.email.toLowerCase()) {
    throw invalid('token', 'auth.verify_token_invalid');
  }
  await db.update(users).set({ email_verified_at: new Date() }).where(eq(users.id, row.user.id));
  await db.update(userTokens).set({ used_at: new Date() }).where(eq(userTokens.id, row.token.id));
}

/** Who a reset or verification link is for, so that its screen can greet them. */
export async function userInfo(db: Tx, token: string) {
  const row = await findUserToken(db, token, ['password_reset', 'verify_email']);
  if (!row) throw invalid('token', 'auth.reset_token_invalid');
  return {
    email: row.user.email,
    first_name: row.user.first_name,
    last_name: row.user.last_name,
    purpose: row.token.purpose,
  };
}

export async function unsubscribe(db: Tx, token: string): Promise<void> {
  const row = await findUserToken(db, token, ['unsubscribe']);
  if (!row) throw invalid('token', 'auth.unsubscribe_invalid');
  await db
    .update(users)
    .set({ settings: sql`${users.settings} || '{"email_unsubscribed": true}'::jsonb` })
    .where(eq(users.id, row.user.id));
}

/**
 * Sends a notification e-mail (not a transactional one) to a user, with an unsubscribe link; nothing is
 * sent to a user who unsubscribed. Returns whether it was sent.
 */
export async function sendNotificationMail(
  deps: Deps,
  userId: number,
  message: { subject: string; text: string },
): Promise<boolean> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user || user.settings.email_unsubscribed) return false;
  const token = await createUserToken(deps.db, user, 'unsubscribe', null);
  const site = await siteFor(deps, user);
  const footer = translate('mail.unsubscribe_footer', langOf(user), {
    link: `${site.url}/unsubscribe/email/${token}`,
  });
  await deps.mailer.send({
    to: user.email,
    agencyId: user.agency_id,
    businessId: user.business_id,
    subject: message.subject,
    text: `${message.text}\n\n--\n${footer}`,
  });
  return true;
}
