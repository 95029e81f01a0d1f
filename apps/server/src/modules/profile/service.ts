import type { TSettingRequest, TUpdateProfileRequest } from '@stn/contracts/profile';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { invalid, notFound } from '../../platform/http/errors.ts';
import { actingUser, type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { agencyOfUser } from '../agencies/service.ts';
import { businessOfUser } from '../businesses/service.ts';
import { unreadTotalOfUser } from '../chats/service.ts';
import { openInstallWizard } from '../installs/service.ts';
import { hasOwnMail } from '../integrations/service.ts';
import { releaseNotesAfter } from '../sites/service.ts';
import { billingFlags } from '../subscriptions/service.ts';
import { supportWidgetKey } from '../support/service.ts';
import { openTaskCount } from '../tasks/service.ts';
import {
  getUser,
  guardCredentials,
  impersonatorOf,
  isEmailTaken,
  loadUser,
  mergeSettings,
  setCountries,
  setPassword,
  type UserAccount,
  updateUser,
} from '../users/service.ts';

/** The user's agency and business as the profile shows them, from the modules that own them. */
async function accountOf(
  ctx: Ctx,
  ids: { agencyId: number | null; businessId: number | null },
): Promise<UserAccount> {
  const account =
    ids.businessId !== null
      ? ({ kind: 'business', id: ids.businessId } as const)
      : ids.agencyId !== null
        ? ({ kind: 'agency', id: ids.agencyId } as const)
        : null;
  const [a, b, billing, mail] = await Promise.all([
    agencyOfUser(ctx, { agencyId: ids.agencyId }),
    businessOfUser(ctx, { businessId: ids.businessId }),
    billingFlags(ctx, account),
    ids.agencyId !== null && ids.businessId !== null
      ? hasOwnMail(ctx, { agencyId: ids.agencyId, businessId: ids.businessId })
      : null,
  ]);
  return {
    subscriptions: { zapier: a?.zapier ?? false },
    has_twilio_setup: a?.has_twilio_setup ?? false,
    carrier_sandbox: a?.carrier_sandbox ?? false,
    agency_has_stripe_config: a?.agency_has_stripe_config ?? false,
    max_departments: b?.max_departments ?? 0,
    stripe_active: billing.stripe_active,
    subscribed: billing.subscribed,
    has_payment_method: billing.has_payment_method,
    agency: a?.agency ?? null,
    business: b?.business ? { ...b.business, ...(mail ? { has_integrations: mail } : {}) } : null,
  };
}

/**
 * The profile of spec 000 §3: the users module's user, with `open_install_wizard` from the installs
 * module (a business without an install, or with an unfinished wizard, is sent to the wizard; ADR 027)
 * and the key of the support chat to load from the support module (ADR 042).
 */
export async function profileUser(ctx: Ctx, userId: number) {
  const user = await loadUser(ctx, { userId, account: (ids) => accountOf(ctx, ids) });
  const open_install_wizard = await openInstallWizard(ctx, {
    businessId: user.business?.id ?? null,
    subject: { role: user.role, user_type: user.user_type, pages: user.settings.custom_type_pages ?? [] },
  });
  const number_of_tasks = user.role_group === 'Business' ? await openTaskCount(ctx, user.id) : 0;
  // The unread total over the conversations the user may see (0 without inbox.use; ADR 045).
  const number_of_messages =
    user.role_group === 'Business' && user.business
      ? await unreadTotalOfUser(ctx, { businessId: user.business.id, userId: user.id })
      : 0;
  const support_widget_key = await supportWidgetKey(ctx, {
    role_group: user.role_group,
    agencyIsMain: user.agency?.is_main ?? false,
  });
  return { ...user, open_install_wizard, number_of_tasks, number_of_messages, support_widget_key };
}

export async function impersonator(ctx: Ctx) {
  const row = await impersonatorOf(ctx);
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
 * be unique and becomes the user's only once the link sent to it is followed (users' updateUser, ADR 050).
 */
export async function updateProfile(
  ctx: Ctx,
  input: TUpdateProfileRequest,
): Promise<{ emailChanged: boolean }> {
  const actor = actingUser(ctx);
  const user = await getUser(ctx, actor.userId);
  if (!user) throw notFound();
  const emailChanged = input.email.toLowerCase() !== user.email.toLowerCase();
  if (emailChanged && (await isEmailTaken(ctx, { email: input.email, exceptUserId: user.id })))
    throw invalid('email', 'validation.email_taken');
  // The e-mail and the password are the keys to the account: changing either needs the current password,
  // which a stolen token does not have; an impersonation token never changes them (ADR 019).
  if (emailChanged || input.password !== undefined) {
    await guardCredentials(ctx, { target: user, proven: true });
    if (!input.current_password || !(await verifyPassword(user.password_hash, input.current_password))) {
      throw invalid('current_password', 'auth.current_password');
    }
  }
  // Argon2 is slow on purpose: hashed before the transaction opens, which then holds no connection idle.
  const password = input.password !== undefined ? { hash: await hashPassword(input.password) } : undefined;
  await inTransaction(ctx, async (tx) => {
    // The password first: a new password ends every outstanding link, and the e-mail change's link is
    // issued after it (ADR 050).
    // Every other session ends; this one stays.
    if (password !== undefined)
      await setPassword(tx, { user, password, keepTokenId: actor.tokenId, proven: true });
    await updateUser(tx, {
      id: user.id,
      proven: true,
      set: {
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
        ...(input.language ? { settings: { ...user.settings, language: input.language } } : {}),
      },
    });
  });
  return { emailChanged };
}

export async function updateSettings(ctx: Ctx, settings: TSettingRequest): Promise<void> {
  await mergeSettings(ctx, { id: actingUser(ctx).userId, settings });
}

export async function updateCountries(ctx: Ctx, input: { countries: string[] }): Promise<void> {
  await setCountries(ctx, { id: actingUser(ctx).userId, countries: input.countries });
}

// ---------------------------------------------------------------------------------------------------
// What's new (issue 23): instead of a third-party release-announcements script, an agency admin sees the
// platform's own release notes published since the newest one they have seen, once each.

const WHATS_NEW_MAX = 5;

export async function whatsNew(ctx: Ctx, userId: number) {
  const user = await getUser(ctx, userId);
  if (!user) throw notFound();
  const seen = user.settings.release_notes_read_at;
  return releaseNotesAfter(ctx, { after: seen ? new Date(seen) : null, limit: WHATS_NEW_MAX });
}

/** Marks every note published up to `upTo` (the newest the user was shown) as seen; never moves back. */
export async function markWhatsNewRead(ctx: Ctx, input: { userId: number; upTo: string }) {
  const user = await getUser(ctx, input.userId);
  if (!user) throw notFound();
  const seen = user.settings.release_notes_read_at;
  if (seen && new Date(seen) >= new Date(input.upTo)) return;
  await mergeSettings(ctx, {
    id: input.userId,
    settings: { release_notes_read_at: new Date(input.upTo).toISOString() },
  });
}
