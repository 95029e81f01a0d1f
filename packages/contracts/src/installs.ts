import { dataOf, listOf } from './http.ts';
import { zPhone } from './users.ts';
import { z } from './zod.ts';

// Contracts of the `installs` domain: a business's widget on one website, with every setting of
// spec 000 §3 "Install" and the defaults of §9. The installs module owns the shape; the telephony module
// reads the call settings (agents, hours, timeout, press_number, recording, whisper, caller id) and the
// widget (issue 11) the rest.

export const INSTALL_STATUSES = ['active', 'archived', 'deleted'] as const;
export type TInstallStatus = (typeof INSTALL_STATUSES)[number];

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type TWeekday = (typeof WEEKDAYS)[number];

/** How staff phones ring for a callback: all at once, one after another in order, or round robin. */
export const CALLING_TYPES = ['simultaneous', 'sequential', 'round_robin'] as const;
export type TCallingType = (typeof CALLING_TYPES)[number];

/** A time of day as the spec writes it: 08:00AM, 05:00PM. */
export const zClock = () =>
  z.string().regex(/^(0[1-9]|1[0-2]):[0-5]\d(AM|PM)$/, { message: 'validation.invalid' });

/** Minutes after midnight of a spec clock value ('08:00AM' -> 480). */
export function clockMinutes(value: string): number {
  const m = /^(\d\d):(\d\d)(AM|PM)$/.exec(value);
  if (!m) return Number.NaN;
  const h = Number(m[1]) % 12;
  return (m[3] === 'PM' ? h + 12 : h) * 60 + Number(m[2]);
}

export const ZDayHours = z.object({
  open: z.boolean(),
  from: zClock(),
  to: zClock(),
});
export type TDayHours = z.infer<typeof ZDayHours>;

const weekday = (open: boolean) => ZDayHours.default({ open, from: '08:00AM', to: '05:00PM' });

/** Monday to Friday 08:00AM-05:00PM, weekend closed (spec 000 §9). */
export const ZHours = z.object({
  monday: weekday(true),
  tuesday: weekday(true),
  wednesday: weekday(true),
  thursday: weekday(true),
  friday: weekday(true),
  saturday: weekday(false),
  sunday: weekday(false),
});
export type THours = z.infer<typeof ZHours>;

/** A staff phone the install rings for callbacks: a business user (by id) or a named number. */
export const ZPhoneAgent = z.object({
  user_id: z.number().int().positive().nullable().default(null),
  name: z.string().trim().min(1).max(100),
  phone: zPhone(),
});
export type TPhoneAgent = z.infer<typeof ZPhoneAgent>;

const zColor = () => z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'validation.invalid' });

/**
 * Every setting of an install, each with its default: `ZInstallSettings.parse({})` is a new install's
 * settings. The names follow spec 000 §3 (its spellings, Roudness included).
 */
export const ZInstallSettings = z.object({
  /** 1 calls, 2 texts, 3 both (spec 000 §9). */
  widget_type: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(3),
  language: z.enum(['en', 'es', 'br']).default('en'),
  languageList: z
    .array(z.enum(['en', 'es', 'br']))
    .min(1)
    .default(['en', 'es']),
  timezone: z.string().trim().min(1).max(64).default('America/New_York'),
  hours: ZHours.default(ZHours.parse({})),
  // ---- calls
  phoneAgents: z.array(ZPhoneAgent).max(10).default([]),
  calling_type: z.enum(CALLING_TYPES).default('simultaneous'),
  /** Seconds staff phones ring before the callback is missed. */
  timeout: z.number().int().min(10).max(300).default(60),
  /** The promise shown to the visitor: called back within this many seconds. */
  callback_seconds: z.number().int().min(5).max(300).default(14),
  press_number: z.number().int().min(0).max(9).default(1),
  /** What staff hear before "press {press_number}"; {name} and {phone} are the visitor's. */
  whisper: z.string().trim().max(300).default('New callback request from {name} at {phone}.'),
  missed_call_message: z
    .string()
    .trim()
    .max(500)
    .default('Sorry, nobody could take your call right now. Please leave a message after the tone.'),
  voicemail_enabled: z.boolean().default(true),
  call_recording: z.boolean().default(false),
  department_enabled: z.boolean().default(false),
  departments: z.array(z.number().int().positive()).max(50).default([]),
  /** A verified number of the business shown to the visitor instead of the install's number. */
  caller_id: z.string().max(20).nullable().default(null),
  caller_id_verified: z.boolean().default(false),
  // ---- texts
  smsAgents: z.array(z.number().int().positive()).max(50).default([]),
  landline_enabled: z.boolean().default(false),
  landline_number: z.string().max(20).nullable().default(null),
  auto_responder: z.string().trim().max(480).default(''),
  // ---- notifications
  notification_type: z.enum(['none', 'email', 'sms', 'both']).default('email'),
  notification_email: z.string().trim().max(191).default(''),
  notification_phone: z.string().trim().max(40).default(''),
  // ---- lead form
  is_enable_lead_form: z.boolean().default(false),
  lead_form_id: z.number().int().positive().nullable().default(null),
  // ---- look and behaviour
  colors: z.object({ primary: zColor().default('#2991D1'), text: zColor().default('#FFFFFF') }).default({
    primary: '#2991D1',
    text: '#FFFFFF',
  }),
  position: z.enum(['bottom-right', 'bottom-left']).default('bottom-right'),
  margins: z
    .object({
      x: z.number().int().min(0).max(200).default(20),
      y: z.number().int().min(0).max(200).default(20),
    })
    .default({ x: 20, y: 20 }),
  popup: z
    .object({ auto: z.boolean().default(false), delay: z.number().int().min(0).max(600).default(10) })
    .default({ auto: false, delay: 10 }),
  name_field: z.boolean().default(true),
  email_field: z.boolean().default(false),
  gdpr_consent: z.boolean().default(false),
  promotion_consent: z.boolean().default(false),
  styling: z
    .object({
      BackgroundColor: zColor().default('#FFFFFF'),
      BorderColor: zColor().default('#DDDDDD'),
      Roudness: z.number().int().min(0).max(50).default(8),
      MaxWidth: z.number().int().min(200).max(1200).default(500),
      Padding: z.number().int().min(0).max(100).default(20),
    })
    .default({ BackgroundColor: '#FFFFFF', BorderColor: '#DDDDDD', Roudness: 8, MaxWidth: 500, Padding: 20 }),
  triggerButton: z
    .object({
      Color: zColor().default('#FFFFFF'),
      BackgroundColor: zColor().default('#2991D1'),
      HoverBackgroundColor: zColor().default('#1a76d2'),
      Roudness: z.number().int().min(0).max(50).default(24),
      FontSize: z.number().int().min(8).max(48).default(16),
      Padding: z.number().int().min(0).max(100).default(10),
      Align: z.enum(['left', 'center', 'right']).default('center'),
    })
    .default({
      Color: '#FFFFFF',
      BackgroundColor: '#2991D1',
      HoverBackgroundColor: '#1a76d2',
      Roudness: 24,
      FontSize: 16,
      Padding: 10,
      Align: 'center',
    }),
  /** Per-language texts of the widget; an absent text falls back to the widget's built-in one. */
  texts: z.record(z.string(), z.record(z.string(), z.string().max(500))).default({}),
  /**
   * The step an unfinished install wizard reopens at (spec 000 §4, open_install_wizard = this install's
   * id); null once the wizard was confirmed, and for installs made outside it.
   */
  wizard_step: z.number().int().min(0).max(20).nullable().default(null),
});
export type TInstallSettings = z.infer<typeof ZInstallSettings>;

/** A new install's settings: every default of spec 000 §9. */
export const defaultInstallSettings = (): TInstallSettings => ZInstallSettings.parse({});

/** An install as the business screens see it. */
export const ZInstall = z.object({
  id: z.number(),
  name: z.string(),
  website: z.string(),
  key: z.string(),
  status: z.enum(INSTALL_STATUSES),
  active: z.boolean(),
  settings: ZInstallSettings,
  /** The carrier number assigned to the install (E.164), or null. */
  number: z.string().nullable(),
  widget_icon: z.string().nullable(),
  logo: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TInstall = z.infer<typeof ZInstall>;
export const ZInstallResponse = dataOf(ZInstall);
export const ZInstallListResponse = listOf(ZInstall);

export const ZInstallCreate = z.object({
  name: z.string().trim().min(1).max(100),
  website: z.string().trim().min(1).max(255),
  settings: ZInstallSettings.partial().optional(),
});
export type TInstallCreate = z.infer<typeof ZInstallCreate>;
export const ZInstallUpdate = ZInstallCreate.partial();
export type TInstallUpdate = z.infer<typeof ZInstallUpdate>;

/** Opening hours: whether an install is open at an instant, in its own time zone. */
export function localParts(at: Date, timezone: string): { weekday: TWeekday; minutes: number; date: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return {
    weekday: get('weekday').toLowerCase() as TWeekday,
    minutes: Number(get('hour')) * 60 + Number(get('minute')),
    date: `${get('year')}-${get('month')}-${get('day')}`,
  };
}

export function isOpenAt(settings: Pick<TInstallSettings, 'hours' | 'timezone'>, at: Date): boolean {
  const { weekday, minutes } = localParts(at, settings.timezone);
  const day = settings.hours[weekday];
  return day.open && minutes >= clockMinutes(day.from) && minutes < clockMinutes(day.to);
}
