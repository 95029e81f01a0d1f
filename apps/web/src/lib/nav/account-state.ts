// The account states of spec 000 §4 and §6 that hide or force screens on top of the capability table:
// set-up, payment, widget type, departments, zapier, template accounts. None of them says who may do
// what; that is contracts/capabilities.
import type { TUser } from '@stn/contracts/profile';

/** Spec §4: set-up is complete unless an Agency user has no Twilio set-up and the agency is not a template. */
export function isSetupComplete(user: TUser | null): boolean {
  if (user?.role_group !== 'Agency') return true;
  return user.has_twilio_setup || user.agency?.is_template === true;
}

/** Whether a Business user must pay before using the area (spec §4, template businesses excepted). */
export function businessMustPay(user: TUser): boolean {
  const business = user.business;
  return (
    user.agency_has_stripe_config && !business?.free_fee && !user.stripe_active && !business?.is_template
  );
}

/** Whether an Agency user must pay before using the area (spec §4). */
export function agencyMustPay(user: TUser): boolean {
  return !user.agency?.free_fee && !user.stripe_active;
}

/** The business's widget type; a missing business counts as the create default 3 (both, spec §9). */
function widgetType(user: TUser): number {
  return user.business?.widget_type ?? 3;
}

/** widget_type 2 (texts) or 3 (both). */
export function hasTextWidget(user: TUser): boolean {
  const t = widgetType(user);
  return t === 2 || t === 3;
}

/** widget_type 1 (calls) or 3 (both). */
export function hasPhoneWidget(user: TUser): boolean {
  const t = widgetType(user);
  return t === 1 || t === 3;
}

export function isSmsAgent(user: TUser): boolean {
  return user.agent_type === 'smsAgent' || user.agent_type === 'agent';
}

export function isVoiceAgent(user: TUser): boolean {
  return user.agent_type === 'voiceAgent' || user.agent_type === 'agent';
}

/** Departments: enabled on the business and allowed by its agency (when the agency is known). */
export function departmentsEnabled(user: TUser): boolean {
  return Boolean(user.business?.dep_enabled) && (user.agency?.department_enabled ?? true);
}

/** Template accounts: a template business, or any account of a template agency. */
export function isTemplateAccount(user: TUser): boolean {
  return Boolean(user.business?.is_template) || Boolean(user.agency?.is_template);
}

/** Zapier: the agency has zapier enabled and it is not given for free. */
export function zapierVisible(user: TUser): boolean {
  return Boolean(user.agency?.zapier_enabled) && !user.agency?.zapier_free;
}

/**
 * What holds an account on a screen the guards force (spec §4), for the held-state explanation:
 * `plan` — neither Free nor an active subscription; `telephony` — an agency without its telephony-provider
 * account (templates excepted). Empty when nothing holds the user.
 */
export type HeldReason = 'plan' | 'telephony';
export function heldReasons(user: TUser | null): HeldReason[] {
  if (!user) return [];
  if (user.role_group === 'Business') return businessMustPay(user) ? ['plan'] : [];
  if (user.role_group !== 'Agency') return [];
  const out: HeldReason[] = [];
  if (agencyMustPay(user)) out.push('plan');
  if (!isSetupComplete(user)) out.push('telephony');
  return out;
}
