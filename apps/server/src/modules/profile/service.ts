import type { TSettingRequest, TUpdateProfileRequest } from '@stn/contracts/profile';
import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { users } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/http/errors.ts';
import { emailTaken } from '../accounts/service.ts';
import { sendEmailVerification } from '../auth/email-tokens.ts';
import { revokeAllTokens } from '../auth/service.ts';

export async function impersonatorOf(deps: Deps, actor: Actor) {
  if (!actor.impersonatorId) return null;
  const [row] = await deps.db.select().from(users).where(eq(users.id, actor.impersonatorId));
  if (!row) return null;
  return {
    id: row.id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    role_group: row.role_group,
  };
}

/**
 * Updates the caller's own profile. A new password needs the current one (so an impersonator cannot set
 * it) and ends every other session; a new e-mail must be unique and is confirmed by a link.
 */
export async function updateProfile(
  deps: Deps,
  actor: Actor,
  input: TUpdateProfileRequest,
): Promise<{ emailChanged: boolean }> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, actor.userId));
  if (!user) throw notFound();
  const emailChanged = input.email.toLowerCase() !== user.email.toLowerCase();
  if (emailChanged && (await emailTaken(deps.db, input.email, user.id)))
    throw invalid('email', 'validation.email_taken');
  let passwordHash: string | undefined;
  if (input.password !== undefined) {
    if (!input.current_password || !(await verifyPassword(user.password_hash, input.current_password))) {
      throw invalid('current_password', 'auth.current_password');
    }
    passwordHash = await hashPassword(input.password);
  }
  const updated = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
        ...(input.language
          ? { settings: sql`${users.settings} || ${JSON.stringify({ language: input.language })}::jsonb` }
          : {}),
        ...(emailChanged ? { email_verified_at: null } : {}),
        ...(passwordHash ? { password_hash: passwordHash, password_changed_at: new Date() } : {}),
        updated_at: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning();
    if (passwordHash) await revokeAllTokens(tx, user.id, actor.tokenId);
    return row;
  });
  if (emailChanged && updated) await sendEmailVerification(deps, updated);
  return { emailChanged };
}

export async function updateSettings(deps: Deps, actor: Actor, settings: TSettingRequest): Promise<void> {
  // Server-kept flags are not the user's to set.
  const { email_unsubscribed: _ignored, ...rest } = settings as Record<string, unknown>;
  await deps.db
    .update(users)
    .set({ settings: sql`${users.settings} || ${JSON.stringify(rest)}::jsonb`, updated_at: new Date() })
    .where(eq(users.id, actor.userId));
}

export async function updateCountries(deps: Deps, actor: Actor, countries: string[]): Promise<void> {
  await deps.db
    .update(users)
    .set({ countries: [...new Set(countries)], updated_at: new Date() })
    .where(eq(users.id, actor.userId));
}
