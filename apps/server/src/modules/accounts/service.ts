import type { TUser } from '@stn/contracts/profile';
import {
  ROLE_GROUP_OF,
  type TAgentType,
  type TRole,
  type TUserType,
  userTypesFor,
} from '@stn/contracts/roles';
import { eq, sql } from 'drizzle-orm';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { Tx } from '../../platform/db/client.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { agencies } from '../agencies/tables.ts';
import { audit } from '../audit/service.ts';
import { revokeAllTokens } from '../auth/service.ts';
import { businesses } from '../businesses/tables.ts';
import { users } from '../users/tables.ts';

export type CreateUserInput = {
  email: string;
  password: string;
  role: TRole;
  firstName?: string;
  lastName?: string;
  agencyId?: number | null;
  businessId?: number | null;
  userType?: TUserType | null;
  agentType?: TAgentType | null;
  settings?: Record<string, unknown>;
  emailVerified?: boolean;
};

/** Creates a user after checking that role, tenant and user type fit together (spec 000 §6). */
export async function createUser(db: Tx, input: CreateUserInput): Promise<number> {
  const roleGroup = ROLE_GROUP_OF[input.role];
  let agencyId = input.agencyId ?? null;
  const businessId = input.businessId ?? null;
  if (roleGroup === 'Admin' && (agencyId || businessId)) throw invalid('agency', 'validation.invalid');
  if (roleGroup === 'Business') {
    if (!businessId) throw invalid('business', 'validation.required');
    const [biz] = await db
      .select({ agency_id: businesses.agency_id })
      .from(businesses)
      .where(eq(businesses.id, businessId));
    if (!biz) throw invalid('business', 'validation.invalid');
    if (agencyId && agencyId !== biz.agency_id) throw invalid('agency', 'validation.invalid');
    agencyId = biz.agency_id;
  }
  if (roleGroup === 'Agency') {
    if (!agencyId) throw invalid('agency', 'validation.required');
    if (businessId) throw invalid('business', 'validation.invalid');
    const [agency] = await db.select({ id: agencies.id }).from(agencies).where(eq(agencies.id, agencyId));
    if (!agency) throw invalid('agency', 'validation.invalid');
  }
  const allowedTypes = userTypesFor(input.role);
  const userType = input.userType ?? null;
  if (userType && !allowedTypes.includes(userType)) throw invalid('user_type', 'validation.in');
  if (!userType && allowedTypes.length > 0) throw invalid('user_type', 'validation.required');
  const email = input.email.trim().toLowerCase();
  if (await emailTaken(db, email)) throw invalid('email', 'validation.email_taken');

  const [row] = await db
    .insert(users)
    .values({
      email,
      password_hash: await hashPassword(input.password),
      first_name: input.firstName ?? '',
      last_name: input.lastName ?? '',
      role_group: roleGroup,
      role: input.role,
      user_type: userType,
      agent_type: input.agentType ?? null,
      agency_id: agencyId,
      business_id: businessId,
      settings: input.settings ?? {},
      email_verified_at: input.emailVerified ? new Date() : null,
    })
    .returning({ id: users.id });
  if (!row) throw new AppError('CONFLICT');
  return row.id;
}

export async function emailTaken(db: Tx, email: string, exceptUserId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(2);
  return rows.some((r) => r.id !== exceptUserId);
}

export async function findUserByEmail(db: Tx, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

/** The profile of spec 000 §3, as the web app stores it. */
export async function loadUser(db: Tx, userId: number): Promise<TUser> {
  const [row] = await db
    .select({ user: users, agency: agencies, business: businesses })
    .from(users)
    .leftJoin(agencies, eq(agencies.id, users.agency_id))
    .leftJoin(businesses, eq(businesses.id, users.business_id))
    .where(eq(users.id, userId));
  if (!row) throw notFound();
  const { user, agency, business } = row;
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    email_verified: user.email_verified_at !== null,
    avatar: user.avatar,
    role: user.role,
    role_group: user.role_group,
    user_type: user.user_type,
    agent_type: user.agent_type,
    settings: user.settings,
    subscriptions: { zapier: Boolean(agency?.zapier_enabled) },
    has_twilio_setup: Boolean(agency?.twilio_config.accountSid),
    // Billing arrives with its own issue: until then nobody has an active paid subscription.
    stripe_active: false,
    subscribed: false,
    has_payment_method: false,
    agency_has_stripe_config: Boolean(agency?.stripe_config.publicKey),
    max_departments: Number(
      (business?.settings as { max_departments?: number } | undefined)?.max_departments ?? 0,
    ),
    open_install_wizard: false,
    number_of_messages: 0,
    number_of_tasks: 0,
    countries: user.countries,
    agency: agency
      ? {
          id: agency.id,
          name: agency.name,
          email: agency.email,
          domain: agency.domain,
          subdomain: agency.subdomain,
          is_main: agency.is_main,
          is_template: agency.is_template,
          free_fee: agency.free_fee,
          active: agency.active,
          zapier_enabled: agency.zapier_enabled,
          zapier_free: agency.zapier_free,
          department_enabled: agency.department_enabled,
          remove_branding: agency.remove_branding,
          profanity_enabled: agency.profanity_enabled,
          properties: {
            twProfileSid: agency.properties.twProfileSid ?? null,
            twCampaignSid: agency.properties.twCampaignSid ?? null,
          },
        }
      : null,
    business: business
      ? {
          id: business.id,
          name: business.name,
          free_fee: business.free_fee,
          is_template: business.is_template,
          widget_type: business.widget_type,
          is_on_trial: business.is_on_trial,
          calls: business.calls,
          number_of_calls: business.number_of_calls,
          messages: business.messages,
          number_of_messages: business.number_of_messages,
          number_of_users: business.number_of_users,
          number_of_installs: business.number_of_installs,
          number_of_automations: business.number_of_automations,
          dep_enabled: business.dep_enabled,
          has_sales_user_extension: business.has_sales_user_extension,
        }
      : null,
  };
}

/**
 * Someone sets another user's password (an admin, an agency, a business manager): the password is
 * replaced, every session of that user ends, and the audit log says who did it. Call it inside the
 * caller's transaction; hash first (Argon2 is slow) with hashPassword.
 */
export async function setPasswordOfUser(
  tx: Tx,
  target: { id: number; agency_id: number | null; business_id: number | null },
  passwordHash: string,
  entry: { action: string; actorId: number; ip?: string | null; requestId?: string | null },
): Promise<void> {
  await tx
    .update(users)
    .set({ password_hash: passwordHash, password_changed_at: new Date(), updated_at: new Date() })
    .where(eq(users.id, target.id));
  await revokeAllTokens(tx, target.id);
  await audit(tx, {
    ...entry,
    agencyId: target.agency_id,
    businessId: target.business_id,
    targetUserId: target.id,
  });
}
