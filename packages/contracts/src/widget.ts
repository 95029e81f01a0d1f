import * as z from 'zod/mini';
import { widgetPhoneToE164 } from './widget-phone.ts';

export { WIDGET_PHONE_COUNTRY, widgetPhoneToE164 } from './widget-phone.ts';
export * from './widget-texts.ts';

// The contracts the website widget (apps/widget) imports: its public requests and the phone check. Size is
// a feature of the widget, so this entry imports neither libphonenumber's country-wide metadata nor the
// server's messages, nor the rest of the contracts; `npm run bench` prints what it weighs
// (bench/contracts-widget-size.mjs, docs/decisions/017-honest-test-run.md).
//
// It uses zod/mini, which the server's type provider accepts like any zod 4 schema, imported as a
// namespace: esbuild cannot tree-shake `import { z }`, which pulls in all of zod's locales (94 KiB
// gzipped instead of 18). Every issue carries a locale key (as the other contracts do through zod.ts),
// so the server formats it in the user's language and the widget looks it up in WIDGET_MESSAGES.
//
// The widget's browser bundle imports none of this file: its texts and phone check live in the zod-free
// widget-texts.ts and widget-phone.ts (re-exported here), so the schemas stay on the server.

/** A phone number, 'Wrong phone number format!!' when invalid, answered in E.164. */
export const zWidgetPhone = () =>
  z.pipe(
    z.string({ error: 'validation.required' }).check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.refine((v) => widgetPhoneToE164(v) !== null, { error: 'validation.phone' }),
    ),
    z.transform((v) => widgetPhoneToE164(v) ?? v),
  );

const zOptionalText = (max: number) =>
  z.optional(
    z
      .string({ error: 'validation.invalid' })
      .check(z.trim(), z.maxLength(max, { error: 'validation.invalid' })),
  );

/** A text the visitor must fill in, trimmed, at most `max` characters. */
const zRequiredText = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'validation.required' }),
      z.maxLength(max, { error: 'validation.invalid' }),
    );
/** The conversation token the widget holds between requests. */
const zToken = () => z.string().check(z.minLength(1, { error: 'validation.required' }), z.maxLength(1000));

const zOptionalEmail = () =>
  z.optional(
    z.union([z.literal(''), z.email({ error: 'validation.email' }).check(z.trim(), z.maxLength(191))], {
      error: 'validation.email',
    }),
  );

/** Consent flags of the install's gdpr and promotion options; absent means not given. */
const consent = {
  gdpr_consent: z._default(z.boolean({ error: 'validation.invalid' }), false),
  promotion_consent: z._default(z.boolean({ error: 'validation.invalid' }), false),
};

/** Who the visitor is: the phone is required, name and e-mail as the install's form asks. */
const visitor = {
  phone: zWidgetPhone(),
  name: zOptionalText(100),
  email: zOptionalEmail(),
  department_id: z.optional(
    z.int({ error: 'validation.invalid' }).check(z.positive({ error: 'validation.invalid' })),
  ),
  ...consent,
};

/** An instant callback: staff are called and the visitor is connected. */
export const ZWidgetCallbackRequest = z.object(visitor);
export type TWidgetCallbackRequest = z.infer<typeof ZWidgetCallbackRequest>;

/** 'Text us': the visitor's first message starts a two-way SMS conversation. */
export const ZWidgetTextUsRequest = z.object({
  ...visitor,
  message: zRequiredText(1600),
});
export type TWidgetTextUsRequest = z.infer<typeof ZWidgetTextUsRequest>;

/** A call scheduled by the visitor for a later time (ISO 8601 with an offset), in their time zone. */
export const ZWidgetScheduleRequest = z.object({
  ...visitor,
  scheduled_at: z.iso.datetime({ offset: true, error: 'validation.invalid' }),
  timezone: z.optional(z.string().check(z.minLength(1), z.maxLength(64, { error: 'validation.invalid' }))),
});
export type TWidgetScheduleRequest = z.infer<typeof ZWidgetScheduleRequest>;

// ---------------------------------------------------------------------------------------------------
// The widget's public API (/api/widget/v1/..., issue 11). Every request carries the install key (the
// `X-Install-Key` header, or `key` in the query for EventSource, which cannot send headers). Answers are
// the platform's envelope `{ success: true, data }`; errors `{ success: false, message, errors? }` with a
// text in the visitor's language (`Accept-Language`). Each answer is a schema here (`ZWidget*`), which the
// server's routes declare as their response: the serializer sends what the schema names and nothing else
// (ADR 055). The widget's bundle imports only their types (`TWidget*`), so it carries no schema.
//
//   GET  /v1/config                 TWidgetConfig (ETag, max-age 60)
//   POST /v1/callback               TWidgetCallbackRequest  -> TWidgetCallbackAnswer
//   GET  /v1/slots?days=7           TWidgetSlots (the install's bookable times, next `days` days, max 14)
//   POST /v1/schedule               TWidgetScheduleRequest  -> TWidgetScheduleAnswer
//   POST /v1/text                   TWidgetTextUsRequest    -> TWidgetTextAnswer (starts the conversation)
//   POST /v1/text/reply             TWidgetReplyRequest     -> TWidgetMessage (the visitor writes again)
//   POST /v1/text/verify            TWidgetVerifyRequest    -> TWidgetVerifyAnswer (the code texted to the
//                                   phone: the token then shows the business's replies)
//   POST /v1/text/code              TWidgetCodeRequest      -> TWidgetCodeAnswer (the code texted again)
//   GET  /v1/conversation?token=    TWidgetConversation     (the visitor's messages, oldest first)
//   GET  /v1/events?token=&key=     text/event-stream of TWidgetEvent (`event: call` / `event: message`),
//                                   a comment line every 25 s; ends when the token expires.
//
// The `token` is the visitor's: signed by the server, naming the install, the contact and (after a
// callback) the call; valid for 24 hours. It is all a page needs to follow its own call and
// conversation, and it reads nothing else. The widget keeps it in sessionStorage per install.
// ---------------------------------------------------------------------------------------------------

/** A widget answer: the platform's envelope around the data. */
export const widgetAnswer = <T extends z.ZodMiniType>(data: T) =>
  z.object({ success: z.literal(true), data });

/** GET /v1/config: what the widget needs to draw itself. Private settings (staff, agents) never leave. */
export const ZWidgetConfig = z.object({
  id: z.number(),
  /** The business's name, for the header and the HELP-like texts. */
  business_name: z.string(),
  /** 1 calls, 2 texts, 3 both: the install's widget_type narrowed by the business's. */
  widget_type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** Whether an instant callback can be asked now (inside the hours, under the monthly limit). */
  open_now: z.boolean(),
  logo: z.nullable(z.string()),
  widget_icon: z.nullable(z.string()),
  /** The install's public settings (ZInstallSettings without the private keys). */
  settings: z.record(z.string(), z.unknown()),
  /**
   * The lead form the LeadLabel trigger opens (GET /v1/lead-form): the install's `lead_form_id` when
   * `is_enable_lead_form` is on and the form is active, else null (issue 21).
   */
  lead_form_id: z.optional(z.nullable(z.number())),
  /**
   * The business's analytics integration (issue 25, ADR 087): where the widget reports its events on the
   * host page (GA4's gtag, the Tag Manager data layer), or null when it is off. Only the flags.
   */
  analytics: z.optional(z.nullable(z.object({ gtag: z.boolean(), data_layer: z.boolean() }))),
});
export type TWidgetConfig = z.infer<typeof ZWidgetConfig>;

/** A call's progress as the visitor sees it. */
export const WIDGET_CALL_STATUSES = ['finding', 'calling_you', 'connected', 'completed', 'missed'] as const;
export type TWidgetCallStatus = (typeof WIDGET_CALL_STATUSES)[number];

export const ZWidgetCallbackAnswer = z.object({
  status: z.enum(['calling', 'closed']),
  call_id: z.nullable(z.number()),
  callback_seconds: z.number(),
  next_slots: z.array(z.string()),
  /** The visitor token to follow this call on /v1/events (null when closed). */
  token: z.nullable(z.string()),
});
export type TWidgetCallbackAnswer = z.infer<typeof ZWidgetCallbackAnswer>;

export const ZWidgetSlots = z.object({
  /** The install's time zone (IANA); the slots are instants, the widget shows them in the visitor's zone. */
  timezone: z.string(),
  /** ISO 8601 instants with offset, every 30 minutes inside the hours, from 30 minutes from now. */
  slots: z.array(z.string()),
});
export type TWidgetSlots = z.infer<typeof ZWidgetSlots>;

export const ZWidgetScheduleAnswer = z.object({ id: z.nullable(z.number()), scheduled_for: z.string() });
export type TWidgetScheduleAnswer = z.infer<typeof ZWidgetScheduleAnswer>;

export const ZWidgetMessage = z.object({
  id: z.number(),
  direction: z.enum(['in', 'out']),
  body: z.string(),
  media: z.array(z.string()),
  status: z.string(),
  created_at: z.string(),
});
export type TWidgetMessage = z.infer<typeof ZWidgetMessage>;

/**
 * `verified` false: the token shows only what this visitor typed into the widget, until the code texted to
 * the phone is entered (POST /v1/text/verify); anyone can type someone else's number (issue 17, ADR 048).
 * `code_sent`: whether the code went out (a throttled or refused SMS: the replies still reach the phone).
 */
export const ZWidgetTextAnswer = z.object({
  token: z.string(),
  message: ZWidgetMessage,
  verified: z.boolean(),
  code_sent: z.boolean(),
});
export type TWidgetTextAnswer = z.infer<typeof ZWidgetTextAnswer>;
export const ZWidgetConversation = z.object({ messages: z.array(ZWidgetMessage) });
export type TWidgetConversation = z.infer<typeof ZWidgetConversation>;

/** The code texted to the visitor's phone, proving the phone is theirs before the replies are shown. */
export const ZWidgetVerifyRequest = z.object({
  token: zToken(),
  code: zRequiredText(12),
});
export type TWidgetVerifyRequest = z.infer<typeof ZWidgetVerifyRequest>;
/** The same conversation's token, now showing the business's replies (and the phone's texts). */
export const ZWidgetVerifyAnswer = z.object({ token: z.string(), verified: z.literal(true) });
export type TWidgetVerifyAnswer = z.infer<typeof ZWidgetVerifyAnswer>;

export const ZWidgetCodeRequest = z.object({
  token: zToken(),
});
export type TWidgetCodeRequest = z.infer<typeof ZWidgetCodeRequest>;
export const ZWidgetCodeAnswer = z.object({ code_sent: z.boolean() });
export type TWidgetCodeAnswer = z.infer<typeof ZWidgetCodeAnswer>;

/** The visitor writes again while the page is open. */
export const ZWidgetReplyRequest = z.object({
  token: zToken(),
  message: zRequiredText(1600),
});
export type TWidgetReplyRequest = z.infer<typeof ZWidgetReplyRequest>;

/** An event on /v1/events. */
export type TWidgetEvent =
  | { type: 'call'; call_id: number; status: TWidgetCallStatus }
  | { type: 'message'; message: TWidgetMessage };
