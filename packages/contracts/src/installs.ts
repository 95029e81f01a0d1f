import { allItemsOf, itemAnswerOf, listOf, ZListQuery } from './http.ts';
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
/** When an inbound text notifies the staff (ADR 082): never, every text, only while nobody is online. */
export const SMS_NOTIFICATION_TYPES = ['none', 'always', 'offline'] as const;
export type TSmsNotificationType = (typeof SMS_NOTIFICATION_TYPES)[number];

/**
 * Whether the runtime knows this IANA time zone (Intl throws on an unknown one). Answers are kept (a
 * formatter costs some 15 µs and every install's settings parse asks), at most a few hundred.
 */
export function isTimeZone(value: string): boolean {
  const known = timeZones.get(value);
  if (known !== undefined) return known;
  let ok: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    ok = true;
  } catch {
    ok = false;
  }
  if (timeZones.size >= 1000) timeZones.clear();
  timeZones.set(value, ok);
  return ok;
}
const timeZones = new Map<string, boolean>();

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

/** One day's hours; an open day closes after it opens (hours past midnight are not a thing here). */
export const ZDayHours = z
  .object({
    open: z.boolean(),
    from: zClock(),
    to: zClock(),
  })
  .refine((d) => !d.open || clockMinutes(d.from) < clockMinutes(d.to), {
    message: 'installs.hours_order',
    path: ['to'],
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
  /** An IANA time zone the hours are in; an unknown one is refused (opening hours could not be read). */
  timezone: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine(isTimeZone, { message: 'validation.invalid' })
    .default('America/New_York'),
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
  /**
   * When an inbound text notifies the staff (ADR 082), on the channels of `notification_type`: never, every
   * text, or only while no user who may see the conversation is online (a session used in the last minutes).
   */
  sms_notification_type: z.enum(SMS_NOTIFICATION_TYPES).default('offline'),
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
  /**
   * The visitor's fields (spec 000 §3 "input"): their look, and which of name and e-mail the widget asks
   * for (the phone always). Their labels are per language, in `texts` (NameLabel, EmailLabel, PhoneLabel,
   * MessageLabel), like every other text of the widget.
   */
  input: z
    .object({
      BackgroundColor: zColor().default('#FFFFFF'),
      Color: zColor().default('#333333'),
      BorderColor: zColor().default('#CCCCCC'),
      Roudness: z.number().int().min(0).max(50).default(4),
      Padding: z.number().int().min(0).max(100).default(8),
      IsEnableName: z.boolean().default(true),
      IsRequiredName: z.boolean().default(false),
      /** A name must be at least two letters and hold no digits. */
      IsEnableNameValidation: z.boolean().default(false),
      IsEnableEmail: z.boolean().default(false),
      IsRequiredEmail: z.boolean().default(false),
    })
    .default({
      BackgroundColor: '#FFFFFF',
      Color: '#333333',
      BorderColor: '#CCCCCC',
      Roudness: 4,
      Padding: 8,
      IsEnableName: true,
      IsRequiredName: false,
      IsEnableNameValidation: false,
      IsEnableEmail: false,
      IsRequiredEmail: false,
    }),
  /**
   * The answer the visitor sees after a request (spec 000 §3 "response"): colours of success and error,
   * and optionally a redirect to a page of the business's site (in the same tab or a new one).
   */
  response: z
    .object({
      SuccessColor: zColor().default('#2E7D32'),
      ErrorColor: zColor().default('#C62828'),
      FontSize: z.number().int().min(8).max(48).default(14),
      Align: z.enum(['left', 'center', 'right']).default('center'),
      Padding: z.number().int().min(0).max(100).default(10),
      IsEnableRedirect: z.boolean().default(false),
      RedirectUrl: z
        .string()
        .trim()
        .max(500)
        .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), { message: 'validation.url' })
        .default(''),
      IsRedirectBlankPage: z.boolean().default(false),
    })
    .default({
      SuccessColor: '#2E7D32',
      ErrorColor: '#C62828',
      FontSize: 14,
      Align: 'center',
      Padding: 10,
      IsEnableRedirect: false,
      RedirectUrl: '',
      IsRedirectBlankPage: false,
    }),
  /**
   * Per-language texts of the widget (keys: WIDGET_TEXT_KEYS of @stn/contracts/widget); an absent text
   * falls back to the widget's built-in one for that language.
   */
  texts: z.record(z.string(), z.record(z.string(), z.string().max(500))).default({}),
  /**
   * The install wizard (spec 000 §4): the step a person left an unfinished wizard at; null once finished
   * (or for an install made on the plain form). A live install with a step reopens the wizard on its edit
   * screen (profile `open_install_wizard` = its id).
   */
  wizard_step: z.number().int().min(0).max(20).nullable().default(null),
});
export type TInstallSettings = z.infer<typeof ZInstallSettings>;

/** A new install's settings: every default of spec 000 §9. */
export const defaultInstallSettings = (): TInstallSettings => ZInstallSettings.parse({});

/** Settings that name staff, their phones or the business's own contacts: never sent to a visitor. */
const PRIVATE_SETTINGS = [
  'phoneAgents',
  'smsAgents',
  'whisper',
  'notification_type',
  'notification_email',
  'notification_phone',
  'sms_notification_type',
  'caller_id',
  'caller_id_verified',
  'wizard_step',
] as const;

/**
 * What the public widget config may show of an install's settings: the server's GET /v1/config and the
 * edit screen's live preview ask the same function, so the preview never shows what a visitor cannot get.
 */
export function publicSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const out = { ...settings };
  for (const key of PRIVATE_SETTINGS) delete out[key];
  return out;
}

/**
 * The settings as the server answers them: the same shape, the phone already in E.164 (an answer is
 * encoded, and a one-way transform such as zPhone's normalisation cannot be).
 */
export const ZInstallSettingsOutput = ZInstallSettings.extend({
  phoneAgents: z.array(ZPhoneAgent.extend({ phone: z.string() })),
});

/** An install as the business screens see it. */
export const ZInstall = z.object({
  id: z.number(),
  name: z.string(),
  website: z.string(),
  key: z.string(),
  status: z.enum(INSTALL_STATUSES),
  active: z.boolean(),
  settings: ZInstallSettingsOutput,
  /** The carrier number assigned to the install (E.164), or null. */
  number: z.string().nullable(),
  widget_icon: z.string().nullable(),
  logo: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TInstall = z.infer<typeof ZInstall>;
export const ZInstallResponse = itemAnswerOf(ZInstall);
export const ZInstallListResponse = listOf(ZInstall);

/**
 * Part of an install's settings, as a create or an edit sends it: every key optional at every depth, no
 * defaults filled in (so an edit changes only what it names), nested objects strict (an unknown weekday
 * or colour name is a 422). The server deep-merges it onto the stored settings and validates the result
 * with `ZInstallSettings`. Lists (phoneAgents, departments, smsAgents...) are replaced whole.
 */
export const ZInstallSettingsPatch = deepPartial(ZInstallSettings, false);
export type TInstallSettingsPatch = { [K in keyof TInstallSettings]?: DeepPartial<TInstallSettings[K]> };
type DeepPartial<T> = T extends unknown[]
  ? T
  : T extends Record<string, unknown>
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** An object schema with every key optional at every depth and the defaults removed. */
function deepPartial(schema: z.ZodObject, strict: boolean): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    let inner = field as z.ZodType;
    while (inner instanceof z.ZodDefault) inner = inner.def.innerType as z.ZodType;
    // A record (texts) is a map, not a fixed shape: kept as it is.
    shape[key] = (inner instanceof z.ZodObject ? deepPartial(inner, true) : inner).optional();
  }
  return strict ? z.strictObject(shape) : z.object(shape);
}

const zWebsite = () => z.string().trim().min(1).max(255);

export const ZInstallCreate = z.object({
  name: z.string().trim().min(1).max(100),
  website: zWebsite(),
  settings: (ZInstallSettingsPatch as z.ZodType<TInstallSettingsPatch>).optional(),
});
export type TInstallCreate = z.infer<typeof ZInstallCreate>;
export const ZInstallUpdate = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  website: zWebsite().optional(),
  settings: (ZInstallSettingsPatch as z.ZodType<TInstallSettingsPatch>).optional(),
});
export type TInstallUpdate = z.infer<typeof ZInstallUpdate>;
/** PUT /v1/installs/{id}/setting: the settings only. */
export const ZInstallSettingRequest = z.object({
  settings: ZInstallSettingsPatch as z.ZodType<TInstallSettingsPatch>,
});
export type TInstallSettingRequest = z.infer<typeof ZInstallSettingRequest>;

export const ZInstallListQuery = ZListQuery.extend({ status: z.enum(INSTALL_STATUSES).default('active') });
export type TInstallListQuery = z.infer<typeof ZInstallListQuery>;

/** GET /v1/installs/all: the active installs, for pickers. */
export const ZInstallPick = z.object({
  id: z.number(),
  name: z.string(),
  website: z.string(),
  active: z.boolean(),
  number: z.string().nullable(),
  /** The widget's public key (it is in the embed code on the business's website). */
  key: z.string(),
  /** Its opening hours and zone (public: the widget says them), so a screen can say it is closed now. */
  hours: ZHours,
  timezone: z.string(),
});
export type TInstallPick = z.infer<typeof ZInstallPick>;
export const ZInstallAllResponse = allItemsOf(ZInstallPick);

export const ZInstallToggleActive = z.object({ active: z.boolean() });

/** POST /v1/business/can-create-install: the business's install limit (active and archived installs count). */
export const ZCanCreateInstall = z.object({
  can_create: z.boolean(),
  total_installs: z.number().int(),
  used_installs: z.number().int(),
  available_installs: z.number().int(),
});
export type TCanCreateInstall = z.infer<typeof ZCanCreateInstall>;
/** Its body carries nothing (the business is the caller's); an empty object or none. */
export const ZCanCreateInstallRequest = z.object({}).nullish();
export const ZCanCreateInstallResponse = z.object({ success: z.literal(true), data: ZCanCreateInstall });

export const ZEmbedCodeResponse = z.object({
  success: z.literal(true),
  data: z.object({ code: z.string(), key: z.string() }),
});

/** An install image (widget icon or logo) sent as a data URL, like the agency images. */
export const INSTALL_IMAGE_MAX_BYTES = 1024 * 1024;
export const ZInstallImageRequest = z.object({ data: z.string().min(1).max(2_000_000) });
export const ZInstallImageResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ url: z.string().nullable() }),
});

/** GET /v1/installs/{id}/twilio-status. */
export const ZInstallTwilioStatus = z.object({
  configured: z.boolean(),
  number: z.string().nullable(),
  caller_id: z.string().nullable(),
  caller_id_verified: z.boolean(),
  voice: z.boolean(),
  sms: z.boolean(),
});
export type TInstallTwilioStatus = z.infer<typeof ZInstallTwilioStatus>;
export const ZInstallTwilioStatusResponse = z.object({
  success: z.literal(true),
  data: ZInstallTwilioStatus,
});

/** Opening hours: whether an install is open at an instant, in its own time zone. */
/** One formatter per time zone (building one costs far more than using it). */
const localFormats = new Map<string, Intl.DateTimeFormat>();
function localFormat(timezone: string): Intl.DateTimeFormat {
  let f = localFormats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hourCycle: 'h23',
    });
    if (localFormats.size >= 1000) localFormats.clear();
    localFormats.set(timezone, f);
  }
  return f;
}

export function localParts(at: Date, timezone: string): { weekday: TWeekday; minutes: number; date: string } {
  const parts = localFormat(timezone).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return {
    weekday: get('weekday').toLowerCase() as TWeekday,
    minutes: Number(get('hour')) * 60 + Number(get('minute')),
    date: `${get('year')}-${get('month')}-${get('day')}`,
  };
}

/**
 * When a day's hours end, in minutes of the day. The hour picker's last time is 11:59PM, which means "until
 * midnight": a business open all day is not closed for the day's last minute.
 */
export function closingMinutes(to: string): number {
  const m = clockMinutes(to);
  return m === 23 * 60 + 59 ? 24 * 60 : m;
}

export function isOpenAt(settings: Pick<TInstallSettings, 'hours' | 'timezone'>, at: Date): boolean {
  const { weekday, minutes } = localParts(at, settings.timezone);
  const day = settings.hours[weekday];
  return day.open && minutes >= clockMinutes(day.from) && minutes < closingMinutes(day.to);
}
