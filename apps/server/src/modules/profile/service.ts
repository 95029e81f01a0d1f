import type { TSettingRequest, TUpdateProfileRequest } from '@stn/contracts/profile';
import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import type { Deps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/http/errors.ts';
import { emailTaken } from '../accounts/service.ts';
import { sendEmailVerification } from '../auth/email-tokens.ts';
import { revokeAllTokens } from '../auth/service.ts';
import { users } from '../users/tables.ts';

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
 * Updates the caller's own profile. A new password or e-mail needs the current password (so an
 * impersonator cannot take the account over); a new password ends every other session; a new e-mail must
 * be unique and is confirmed by a link.
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
  // The e-mail and the password are the keys to the account: changing either needs the current password,
  // which an impersonator or a stolen token does not have.
  if (emailChanged || input.password !== undefined) {
    if (!input.current_password || !(await verifyPassword(user.password_hash, input.current_password))) {
      throw invalid('current_password', 'auth.current_password');
    }
  }
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
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
  await deps.db
    .update(users)
    .set({ settings: sql`${users.settings} || ${JSON.stringify(settings)}::jsonb`, updated_at: new Date() })
    .where(eq(users.id, actor.userId));
}

export async function updateCountries(deps: Deps, actor: Actor, countries: string[]): Promise<void> {
  await deps.db
    .update(users)
    .set({ countries: [...new Set(countries)], updated_at: new Date() })
    .where(eq(users.id, actor.userId));
}
