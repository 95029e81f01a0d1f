import { dataOf, listOf, ZListQuery } from './http.ts';
import { zPhone } from './users.ts';
import { z } from './zod.ts';

// Contracts of the `telephony` domain: numbers, callbacks, calls, voice records, scheduled calls, the
// calls report and the sandbox phones (spec 001 "Installs" number calls, /v1/numbers; spec 000 §2 calls,
// schedule/calls, voice-records, calls-report, numbers). Phone numbers are E.164 strings throughout.

// ---------------------------------------------------------------- numbers

export const NUMBER_KINDS = ['purchased', 'landline', 'caller_id'] as const;
export type TNumberKind = (typeof NUMBER_KINDS)[number];

export const ZNumber = z.object({
  id: z.number(),
  phone_number: z.string(),
  friendly_name: z.string(),
  kind: z.enum(NUMBER_KINDS),
  /** The install it answers for, or null while unassigned. */
  install_id: z.number().nullable(),
  install_name: z.string().nullable(),
  capabilities: z.object({ voice: z.boolean(), sms: z.boolean(), mms: z.boolean() }),
  /** A landline or caller id counts only once the carrier's validation call confirmed it. */
  verified: z.boolean(),
  sms_enabled: z.boolean(),
  created_at: z.string(),
});
export type TNumber = z.infer<typeof ZNumber>;
export const ZNumberResponse = dataOf(ZNumber);
export const ZNumberListResponse = listOf(ZNumber);

export const ZAvailableNumber = z.object({
  phone_number: z.string(),
  friendly_name: z.string(),
  locality: z.string().nullable(),
  region: z.string().nullable(),
  country: z.string(),
  capabilities: z.object({ voice: z.boolean(), sms: z.boolean(), mms: z.boolean() }),
  /** What the number costs a month at the carrier (a decimal string in `price_unit`), null when unknown. */
  monthly_price: z.string().nullable(),
  price_unit: z.string().nullable(),
});
export type TAvailableNumber = z.infer<typeof ZAvailableNumber>;

/** POST /v1/installs/search-phonenumber */
export const ZNumberSearch = z.object({
  country: z.string().trim().length(2).toUpperCase().default('US'),
  area_code: z.coerce.number().int().min(100).max(999).optional(),
  contains: z
    .string()
    .trim()
    .regex(/^[0-9*]{1,10}$/)
    .optional(),
});
export type TNumberSearch = z.infer<typeof ZNumberSearch>;

/** POST /v1/installs/{id}/purchase-phonenumber */
export const ZNumberPurchase = z.object({ phone_number: zPhone() });
/** POST /v1/installs/check-caller-id, /verify-phone-number, /{id}/assign-landline-number */
export const ZPhoneInput = z.object({ phone_number: zPhone() });

/** The answer of a caller-id verification request: the code the person types on the carrier's call. */
export const ZCallerIdVerification = z.object({
  phone_number: z.string(),
  validation_code: z.string(),
  verified: z.boolean(),
});

export const ZAvailableNumberListResponse = z.object({ data: z.array(ZAvailableNumber) });

/** POST /v1/installs/{id}/assign-phonenumber: one of the business's purchased numbers. */
export const ZNumberAssign = z.object({ number_id: z.coerce.number().int().positive() });

/** POST /v1/numbers: a caller id or landline number of the business, to verify with the carrier's call. */
export const ZNumberCreate = z.object({
  phone_number: zPhone(),
  kind: z.enum(['caller_id', 'landline']).default('caller_id'),
  friendly_name: z.string().trim().max(64).optional(),
  install_id: z.number().int().positive().nullable().optional(),
});
export type TNumberCreate = z.infer<typeof ZNumberCreate>;

/** PUT /v1/numbers/{id} */
export const ZNumberUpdate = z.object({
  friendly_name: z.string().trim().max(64).optional(),
  sms_enabled: z.boolean().optional(),
  install_id: z.number().int().positive().nullable().optional(),
});
export type TNumberUpdate = z.infer<typeof ZNumberUpdate>;

/** POST /v1/installs/{id}/check-number: what the carrier says about the install's number. */
export const ZNumberCheck = z.object({
  phone_number: z.string(),
  /** The carrier still has the number on the agency's account. */
  found: z.boolean(),
  /** Its voice and SMS webhooks point at this platform (after any re-pointing). */
  webhooks_ok: z.boolean(),
  /** They did not, and were re-pointed now. */
  repointed: z.boolean(),
});
export const ZNumberCheckResponse = dataOf(ZNumberCheck);
export const ZCallerIdVerificationResponse = dataOf(ZCallerIdVerification);

// ---------------------------------------------------------------- callbacks and calls

export const CALL_OUTCOMES = [
  /** Staff are ringing or the visitor is being connected. */
  'in_progress',
  /** Connected and finished. */
  'completed',
  /** Nobody claimed it within the timeout. */
  'missed',
  /** The visitor did not answer after a staff member claimed it. */
  'no_answer',
  /** Waiting for its time (scheduled calls). */
  'scheduled',
  'canceled',
  'failed',
] as const;
export type TCallOutcome = (typeof CALL_OUTCOMES)[number];

export const CALL_KINDS = ['callback', 'scheduled', 'inbound'] as const;
export type TCallKind = (typeof CALL_KINDS)[number];

/** The widget's answer to a callback request. Outside hours: not queued, with the next slots instead. */
export const ZCallbackAnswer = z.object({
  success: z.literal(true),
  data: z.object({
    status: z.enum(['calling', 'closed']),
    call_id: z.number().nullable(),
    /** The promise: "we call you back within N seconds". */
    callback_seconds: z.number(),
    /** When closed: the next times a call can be scheduled (ISO 8601 with offset), in the install's zone. */
    next_slots: z.array(z.string()),
  }),
});

export const ZCall = z.object({
  id: z.number(),
  kind: z.enum(CALL_KINDS),
  outcome: z.enum(CALL_OUTCOMES),
  install_id: z.number(),
  install_name: z.string(),
  visitor_phone: z.string(),
  visitor_name: z.string().nullable(),
  /** The staff member who claimed it (name and phone), or null. */
  agent_name: z.string().nullable(),
  agent_phone: z.string().nullable(),
  agent_user_id: z.number().nullable(),
  caller_id: z.string().nullable(),
  requested_at: z.string(),
  /** For scheduled calls: when it is to run. */
  scheduled_for: z.string().nullable(),
  claimed_at: z.string().nullable(),
  connected_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  /** Seconds from the request to both legs bridged, or null. */
  time_to_connect: z.number().nullable(),
  duration: z.number().nullable(),
  recording_url: z.string().nullable(),
  has_voicemail: z.boolean(),
});
export type TCall = z.infer<typeof ZCall>;

export const ZCallLeg = z.object({
  call_sid: z.string(),
  role: z.enum(['staff', 'visitor', 'missed_message']),
  to: z.string(),
  status: z.string(),
  answered_by: z.string().nullable(),
  digits: z.string().nullable(),
  updated_at: z.string(),
});
export const ZCallDetail = ZCall.extend({ legs: z.array(ZCallLeg) });
export type TCallDetail = z.infer<typeof ZCallDetail>;
export const ZCallResponse = dataOf(ZCallDetail);
export const ZCallListResponse = listOf(ZCall);

export const ZCallListQuery = ZListQuery.extend({
  outcome: z.enum(CALL_OUTCOMES).optional(),
  kind: z.enum(CALL_KINDS).optional(),
  install_id: z.coerce.number().int().positive().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export type TCallListQuery = z.infer<typeof ZCallListQuery>;

export const ZVoiceRecord = z.object({
  id: z.number(),
  call_id: z.number().nullable(),
  install_name: z.string(),
  from: z.string(),
  duration: z.number(),
  recording_url: z.string(),
  created_at: z.string(),
});
export type TVoiceRecord = z.infer<typeof ZVoiceRecord>;
export const ZVoiceRecordListResponse = listOf(ZVoiceRecord);

/** A scheduled call, made by staff in the app (the widget's visitor schedule comes through the widget). */
export const ZScheduleCallInput = z.object({
  install_id: z.number().int().positive(),
  phone: zPhone(),
  name: z.string().trim().max(100).optional(),
  scheduled_at: z.iso.datetime({ offset: true }),
});

export const ZCallsReportQuery = z.object({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  install_id: z.coerce.number().int().positive().optional(),
});
export const ZCallsReport = z.object({
  totals: z.object({
    requested: z.number(),
    completed: z.number(),
    missed: z.number(),
    no_answer: z.number(),
    /** Median seconds from request to both legs bridged. */
    median_time_to_connect: z.number().nullable(),
  }),
  by_agent: z.array(
    z.object({
      agent_name: z.string(),
      agent_phone: z.string(),
      claimed: z.number(),
      completed: z.number(),
      talk_seconds: z.number(),
      median_time_to_connect: z.number().nullable(),
    }),
  ),
  by_outcome: z.array(z.object({ outcome: z.enum(CALL_OUTCOMES), count: z.number() })),
});
export type TCallsReport = z.infer<typeof ZCallsReport>;
export const ZCallsReportResponse = dataOf(ZCallsReport);

// ---------------------------------------------------------------- agency setup

/** PUT /v1/agencies/twilio-config may choose the sandbox instead of a Twilio account. */
export const ZSandboxChoice = z.object({ sandbox: z.literal(true) });

// ---------------------------------------------------------------- sandbox phones (sandbox carrier only)

export const SANDBOX_PHONE_STATES = ['idle', 'ringing', 'in-call', 'voicemail'] as const;

/** A call as a sandbox phone's card shows it. */
export const ZSandboxCall = z.object({
  sid: z.string(),
  from: z.string(),
  to: z.string(),
  status: z.string(),
  /** The other phone when bridged. */
  bridged_with: z.string().nullable(),
  /** What the phone heard, newest last (Say texts, "[beep]", "[recording]"). */
  heard: z.array(z.string()),
  /** Whether the call is waiting for digits (a Gather). */
  gathering: z.boolean(),
});

export const ZSandboxPhone = z.object({
  number: z.string(),
  /** Who the phone belongs to as the product knows it: a staff agent's name, 'Visitor', or the number. */
  label: z.string(),
  /** The installs of the business whose staff phone it is (none for a visitor or a caller). */
  installs: z.array(z.number()),
  state: z.enum(SANDBOX_PHONE_STATES),
  /** The call ringing or in progress on this phone. */
  call: ZSandboxCall.nullable(),
  /**
   * While no call is live: the newest ended call that said or played something, so a short call (an
   * automation's message) stays readable after it hung up.
   */
  last_call: ZSandboxCall.nullable().optional(),
  /** Texts this phone sent and received, newest last. */
  texts: z.array(
    z.object({
      direction: z.enum(['in', 'out']),
      other: z.string(),
      body: z.string(),
      at: z.string(),
      /** The image URLs of an MMS the phone received. */
      media: z.array(z.string()).optional(),
    }),
  ),
});
export type TSandboxPhone = z.infer<typeof ZSandboxPhone>;
export const ZSandboxPhonesResponse = z.object({ data: z.array(ZSandboxPhone) });
/** One phone after a control action (answer, press, hang up...). */
export const ZSandboxPhoneResponse = dataOf(ZSandboxPhone);
/** A phone in a control path: E.164, its '+' URL-encoded as %2B. */
export const ZSandboxPhoneParams = z.object({
  number: z.string().regex(/^\+[1-9][0-9]{6,14}$/, { message: 'validation.phone' }),
});
export const ZSandboxDigits = z.object({ digits: z.string().regex(/^[0-9*#]{1,20}$/) });
export const ZSandboxText = z.object({ to: zPhone(), body: z.string().trim().min(1).max(1600) });
export const ZSandboxDial = z.object({ to: zPhone() });
/**
 * The carrier error codes a sandbox phone can be made to fail texts with (Sandbox Phones, issue 19): the
 * first five refuse the text when it is sent, 30001 and 30002 fail it unsent, the others report it
 * undelivered, as the real carrier's do.
 */
export const SANDBOX_FAIL_CODES = [
  21610, 21211, 21614, 21612, 21408, 30001, 30002, 30003, 30004, 30005, 30006, 30007, 30008,
] as const;
export const ZSandboxFailingNumber = z.object({ phone: z.string(), code: z.number().int() });
export type TSandboxFailingNumber = z.infer<typeof ZSandboxFailingNumber>;
export const ZSandboxFailingNumbersResponse = z.object({ data: z.array(ZSandboxFailingNumber) });
/** PUT /v1/sandbox/failing-numbers/:number: texts from the agency's account to that phone fail with `code`. */
export const ZSandboxFailInput = z.object({
  code: z
    .number()
    .int()
    .refine((c) => (SANDBOX_FAIL_CODES as readonly number[]).includes(c), {
      message: 'sandbox.unknown_code',
    }),
});

/** The Sandbox Phones screen asks for a callback as a visitor would, from a chosen install. */
export const ZSandboxCallbackInput = z.object({
  install_id: z.number().int().positive(),
  phone: zPhone(),
  name: z.string().trim().max(100).optional(),
});
