import {
  CALLING_TYPES,
  clockMinutes,
  defaultInstallSettings,
  type TInstall,
  type TInstallSettings,
  WEEKDAYS,
  ZInstallSettings,
  zClock,
} from '@stn/contracts/installs';
import { z } from '@stn/contracts/zod';
import { zPhone } from '../../lib/validation-messages.ts';

// The install form's values and the checks of each section: the wizard's steps and the edit screen's Save
// per section run the same ones, so a value the wizard accepts is one the edit screen accepts, and both
// match the server's schema (the contracts' ZInstallSettings) plus the screen's own rules (a staff phone
// for a calls widget, 'from' before 'to').

export type InstallValues = { name: string; website: string; settings: TInstallSettings };

export const SECTIONS = [
  'website',
  'type',
  'calls',
  'hours',
  'look',
  'fields',
  'response',
  'texts',
  'lead',
  'notify',
] as const;
export type InstallSection = (typeof SECTIONS)[number];

/** Staff phones a calls widget needs before it can take a callback. */
export const AGENTS_REQUIRED = 'business.installs.errors.agents_required';
export const HOURS_ORDER = 'business.installs.errors.hours_order';
/** A widget showing a lead form needs the form (issue 21). */
export const LEAD_FORM_REQUIRED = 'business.installs.errors.lead_form_required';
export const MAX_AGENTS = 10;

/** The form's values for an install (a new one: every default of spec 000 §9). */
export function valuesOf(install: TInstall | null): InstallValues {
  const settings = install ? ZInstallSettings.parse(install.settings) : defaultInstallSettings();
  return { name: install?.name ?? '', website: install?.website ?? '', settings };
}

const s = ZInstallSettings.shape;

const zAgent = z.object({
  user_id: z.number().int().positive().nullable().optional(),
  name: z.string().trim().min(1).max(100),
  phone: zPhone(),
});

const zDay = z
  .object({ open: z.boolean(), from: zClock(), to: zClock() })
  .refine((d) => !d.open || clockMinutes(d.from) < clockMinutes(d.to), {
    message: HOURS_ORDER,
    path: ['to'],
  });

const SCHEMAS: Record<InstallSection, z.ZodType> = {
  website: z.object({ name: z.string().trim().min(1).max(100), website: z.string().trim().min(1).max(255) }),
  type: z.object({
    settings: z.object({ widget_type: s.widget_type, language: s.language, languageList: s.languageList }),
  }),
  calls: z.object({
    settings: z
      .object({
        widget_type: s.widget_type,
        phoneAgents: z.array(zAgent).max(MAX_AGENTS),
        calling_type: z.enum(CALLING_TYPES),
        timeout: s.timeout,
        press_number: s.press_number,
        whisper: s.whisper,
        missed_call_message: s.missed_call_message,
        call_recording: s.call_recording,
        voicemail_enabled: s.voicemail_enabled,
      })
      .refine((v) => v.widget_type === 2 || v.phoneAgents.length > 0, {
        message: AGENTS_REQUIRED,
        path: ['phoneAgents'],
      }),
  }),
  hours: z.object({
    settings: z.object({
      timezone: s.timezone,
      hours: z.object(Object.fromEntries(WEEKDAYS.map((d) => [d, zDay])) as Record<string, typeof zDay>),
    }),
  }),
  look: z.object({
    settings: z.object({
      colors: s.colors,
      position: s.position,
      margins: s.margins,
      popup: s.popup,
      texts: s.texts,
      styling: s.styling,
      triggerButton: s.triggerButton,
    }),
  }),
  fields: z.object({
    settings: z.object({
      input: s.input,
      gdpr_consent: s.gdpr_consent,
      promotion_consent: s.promotion_consent,
    }),
  }),
  response: z.object({ settings: z.object({ response: s.response }) }),
  texts: z.object({ settings: z.object({ texts: s.texts }) }),
  notify: z.object({
    settings: z.object({
      notification_type: s.notification_type,
      notification_email: s.notification_email,
      notification_phone: s.notification_phone,
      sms_notification_type: s.sms_notification_type,
    }),
  }),
  lead: z.object({
    settings: z
      .object({ is_enable_lead_form: s.is_enable_lead_form, lead_form_id: s.lead_form_id })
      .refine((v) => !v.is_enable_lead_form || v.lead_form_id !== null, {
        message: LEAD_FORM_REQUIRED,
        path: ['lead_form_id'],
      }),
  }),
};

/** The section's problems as { 'settings.phoneAgents.0.phone': message }; empty when it is valid. */
export function sectionErrors(
  section: InstallSection,
  values: InstallValues,
  text: (message: string, path: readonly PropertyKey[]) => string,
): Record<string, string> {
  const result = SCHEMAS[section].safeParse(values);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.');
    if (!(field in errors)) errors[field] = text(issue.message, issue.path);
  }
  return errors;
}

/** Every section's problems (the last step's check before Confirm). */
export function allErrors(
  values: InstallValues,
  text: (message: string, path: readonly PropertyKey[]) => string,
): Record<string, string> {
  return Object.assign({}, ...SECTIONS.map((section) => sectionErrors(section, values, text)));
}

/** What a section saves: its slice of the settings (PUT /v1/installs/{id}/setting takes a partial). */
export function sectionSettings(
  section: InstallSection,
  settings: TInstallSettings,
): Partial<TInstallSettings> {
  switch (section) {
    case 'website':
      return {};
    case 'type':
      return {
        widget_type: settings.widget_type,
        language: settings.language,
        languageList: settings.languageList,
      };
    case 'calls':
      return {
        phoneAgents: settings.phoneAgents.map((a) => ({ ...a, name: a.name.trim(), phone: a.phone.trim() })),
        calling_type: settings.calling_type,
        timeout: settings.timeout,
        press_number: settings.press_number,
        whisper: settings.whisper,
        missed_call_message: settings.missed_call_message,
        call_recording: settings.call_recording,
        voicemail_enabled: settings.voicemail_enabled,
      };
    case 'hours':
      return { timezone: settings.timezone, hours: settings.hours };
    case 'look':
      return {
        colors: settings.colors,
        position: settings.position,
        margins: settings.margins,
        popup: settings.popup,
        texts: settings.texts,
        styling: settings.styling,
        triggerButton: settings.triggerButton,
      };
    case 'fields':
      return {
        input: settings.input,
        gdpr_consent: settings.gdpr_consent,
        promotion_consent: settings.promotion_consent,
      };
    case 'response':
      return { response: settings.response };
    case 'texts':
      return { texts: settings.texts };
    case 'lead':
      return { is_enable_lead_form: settings.is_enable_lead_form, lead_form_id: settings.lead_form_id };
    case 'notify':
      return {
        notification_type: settings.notification_type,
        notification_email: settings.notification_email.trim(),
        notification_phone: settings.notification_phone.trim(),
        sms_notification_type: settings.sms_notification_type,
      };
  }
}

/** Whether the widget takes callbacks (1 calls, 3 both) or only texts (2). */
export const takesCalls = (settings: Pick<TInstallSettings, 'widget_type'>) => settings.widget_type !== 2;

/** A server 422's field (settings given nested, or at the top for the settings-only call) in form terms. */
export function formField(serverField: string): string {
  if (serverField === 'name' || serverField === 'website' || serverField.startsWith('settings.'))
    return serverField;
  return `settings.${serverField}`;
}

/** The 12-hour clock values every half hour: the hours fields' choices (spec 000 §9 writes 08:00AM). */
export function clockOptions(): string[] {
  const out: string[] = [];
  for (let m = 0; m < 24 * 60; m += 30) {
    const h24 = Math.floor(m / 60);
    const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
    out.push(`${String(h12).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}${h24 < 12 ? 'AM' : 'PM'}`);
  }
  return out;
}
