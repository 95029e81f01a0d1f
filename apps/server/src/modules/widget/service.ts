// The website widget's rules (issue 11, ADR 041, ADR 055): what a visitor of an install may ask (the modes
// the install and its business allow, the visitor's fields as the install asks for them, the limits per
// address, phone and install), the consents kept, the text with the code and the confirmation, and the
// work of the other modules it orchestrates (installs, businesses, agencies, telephony, chats, contacts,
// audit), called through their service.ts. Every function takes the visitor's context (the install's
// business as the tenant, the visitor acting: platform/widget/tree.ts's visitorContext) and an input; the
// routes (./routes.ts) only parse, call and shape the answer.

import type { TLanguage } from '@stn/contracts/constants';
import { translate } from '@stn/contracts/i18n';
import { isOpenAt, publicSettings } from '@stn/contracts/installs';
import {
  type TWidgetCallbackAnswer,
  type TWidgetCallbackRequest,
  type TWidgetCodeAnswer,
  type TWidgetCodeRequest,
  type TWidgetConfig,
  type TWidgetConversation,
  type TWidgetMessage,
  type TWidgetReplyRequest,
  type TWidgetScheduleAnswer,
  type TWidgetScheduleRequest,
  type TWidgetSlots,
  type TWidgetTextAnswer,
  type TWidgetTextUsRequest,
  type TWidgetVerifyAnswer,
  type TWidgetVerifyRequest,
  validWidgetName,
} from '@stn/contracts/widget';
import type { Deps } from '../../platform/deps.ts';
import { AppError } from '../../platform/http/errors.ts';
import { auditClient, type Ctx } from '../../platform/tenancy/context.ts';
import { RateLimiter, type WidgetInstall } from '../../platform/widget/tree.ts';
import { agencySiteAddress } from '../agencies/service.ts';
import { audit } from '../audit/service.ts';
import { businessForWidget, callUsage, messageUsage } from '../businesses/service.ts';
import {
  checkWidgetText,
  receiveWidgetText,
  replyFromWidget,
  sendMessage,
  widgetConversation,
  wroteToContactSince,
} from '../chats/service.ts';
import { updateContact } from '../contacts/service.ts';
import { effectiveSettings, installImages, widgetInstallForCalls } from '../installs/service.ts';
import { installLeadFormId } from '../leadforms/service.ts';
import { bookableSlots, carrierFor, requestCallback, scheduleCall } from '../telephony/service.ts';
import { rightGuess, takeGuess } from './code-guesses.ts';
import { codeMatches, newThread, signToken, type VisitorToken, verifyToken, visitorCode } from './token.ts';

/** Texts (first and replies) one visitor phone may send a minute. */
export const TEXTS_PER_PHONE_MINUTE = 5;
/** Confirmation texts one install may send an hour, whoever asks (the business's messages are its own). */
export const CONFIRMATIONS_PER_INSTALL_HOUR = 30;
/** A day, for the per-destination cap of callbacks and the daily budgets of codes. */
const DAY_MS = 24 * 3_600_000;
/** A phone gets the confirmation once a day: later texts in the same conversation send nothing. */
const CONFIRMATION_QUIET_MS = DAY_MS;
/** Wrong guesses that lock one conversation's code for good (counted in the database, every process). */
export const CODE_GUESSES_PER_CODE = 5;
/** Wrong guesses that lock one phone's codes with a business for a day (any conversation, token, address). */
export const CODE_GUESSES_PER_PHONE_DAY = 10;
/** Codes texted to one phone a day (with a first text or asked again): 'text us' is no way to flood a phone. */
export const CODE_TEXTS_PER_PHONE_DAY = 3;
/** The visitor's conversation shows its latest messages, up to this many. */
export const CONVERSATION_LIMIT = 100;

/** A field people leave empty and form-filling robots fill: a filled one is answered and ignored. */
type Honeypot = { website?: string | undefined };
/** What every visitor call names: the install the tree found by its key. */
type Visit = { install: WidgetInstall };
/** A call that may text the visitor: the texts go out in the visitor's language. */
type VisitIn = Visit & { lang: TLanguage };

/** A fixed-window counter per key: at most `limit` in each `windowMs`. In-process, like the tree's limits. */
class WindowCounter {
  private windows = new Map<string, { start: number; n: number }>();
  constructor(
    private limit: number,
    private windowMs: number,
  ) {}
  take(key: string, now = Date.now()): boolean {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.windows.clear();
      w = { start: now, n: 0 };
      this.windows.set(key, w);
    }
    if (w.n >= this.limit) return false;
    w.n += 1;
    return true;
  }
}

type Limits = {
  textsPerPhone: RateLimiter;
  textsPerAddress: RateLimiter;
  schedulesPerPhone: RateLimiter;
  schedulesPerAddress: RateLimiter;
  callbacksPerInstall: RateLimiter;
  confirmations: WindowCounter;
  codeTexts: WindowCounter;
};
const limitsOf = new WeakMap<Deps, Limits>();
/** The widget's limits of one app (its deps): in-process, as the tree's per-address and per-install ones. */
function limits(ctx: Ctx): Limits {
  const deps = ctx.deps;
  let l = limitsOf.get(deps);
  if (!l) {
    l = {
      textsPerPhone: new RateLimiter(TEXTS_PER_PHONE_MINUTE),
      // Conversations one address may start a minute, whatever phones it types (as callbacks: 10 by default).
      textsPerAddress: new RateLimiter(Math.max(10, Math.floor(deps.config.widgetRatePerAddress / 12))),
      schedulesPerPhone: new RateLimiter(TEXTS_PER_PHONE_MINUTE),
      schedulesPerAddress: new RateLimiter(Math.max(10, Math.floor(deps.config.widgetRatePerAddress / 12))),
      // Every callback rings the staff: one install takes so many a minute, from any number of addresses.
      callbacksPerInstall: new RateLimiter(deps.config.widgetCallbacksPerInstallMinute),
      confirmations: new WindowCounter(CONFIRMATIONS_PER_INSTALL_HOUR, 3_600_000),
      codeTexts: new WindowCounter(CODE_TEXTS_PER_PHONE_DAY, DAY_MS),
    };
    limitsOf.set(deps, l);
  }
  return l;
}

const forbid = (key: string) => new AppError('FORBIDDEN', key, undefined, {}, key);
const tooMany = (key: string) => new AppError('TOO_MANY', key, undefined, {}, key);
const textThrottled = () => tooMany('widget.text_throttled');

/** The visitor's address (the tree puts it in the context). */
const addressOf = (ctx: Ctx): string => (ctx.by.kind === 'visitor' ? ctx.by.ip : undefined) ?? '';

const phoneKey = (installId: number, phone: string) => `${installId}:${phone}`;

/**
 * The agency's carrier can dial and text: an agency still on the sandbox while this server runs without
 * it is refused before anything is stored or promised, in words for the visitor (the operator's reason is
 * logged).
 */
async function carrierReady(ctx: Ctx, install: WidgetInstall): Promise<void> {
  try {
    await carrierFor(ctx);
  } catch (err) {
    if (!(err instanceof AppError) || err.reason !== 'calls.sandbox_off') throw err;
    ctx.deps.log.warn(
      { agencyId: install.agencyId, installId: install.id },
      'widget: the agency uses the sandbox carrier, which is off on this server (CARRIER_SANDBOX=false)',
    );
    throw forbid('widget.carrier_unavailable');
  }
}

/** The modes the widget may offer: the install's widget_type narrowed by the business's (1 calls, 2 texts). */
function widgetType(installType: unknown, businessType: 1 | 2 | 3): 1 | 2 | 3 {
  const own = installType === 1 || installType === 2 ? installType : 3;
  const both = own & businessType;
  return both === 1 || both === 2 || both === 3 ? both : businessType;
}

async function modes(ctx: Ctx, install: WidgetInstall) {
  const business = await businessForWidget(ctx);
  const type = widgetType(install.settings.widget_type, business.widget_type);
  return { business, type, calls: (type & 1) !== 0, texts: (type & 2) !== 0 };
}

/**
 * An image under /uploads as an absolute URL on the agency's own host (the embed code's): the widget runs
 * on the business's site, whose visitors never see the platform's name.
 */
const absolute = (base: string, url: string | null) => (url?.startsWith('/') ? `${base}${url}` : url);

/** The contact's name and e-mail from the widget's form, when the contact has none yet. */
async function rememberVisitor(
  ctx: Ctx,
  contact: { id: number; first_name: string | null; last_name: string | null; email: string | null },
  input: { name?: string | undefined; email?: string | undefined },
): Promise<void> {
  const patch: { first_name?: string; last_name?: string; email?: string } = {};
  const name = input.name?.trim();
  if (name && !contact.first_name && !contact.last_name) {
    const parts = name.split(/\s+/);
    if (parts.length > 1) {
      patch.first_name = parts.slice(0, -1).join(' ');
      patch.last_name = parts[parts.length - 1] ?? '';
    } else patch.first_name = name;
  }
  if (input.email && !contact.email) patch.email = input.email;
  if (Object.keys(patch).length) await updateContact(ctx, { id: contact.id, ...patch });
}

/**
 * The text to the visitor's phone after 'text us': the code that shows the business's replies in the
 * widget (ADR 048), and, once a day per phone, the confirmation that the conversation goes on by SMS (the
 * install's auto-responder, else the built-in one in the visitor's language), in one SMS. Within the
 * install's hourly budget and the business's monthly limit (sendMessage counts and enforces it); a text
 * that cannot be sent leaves the visitor's message in the inbox all the same. Answers whether it went out.
 */
async function textVisitor(
  ctx: Ctx,
  input: VisitIn & { contactId: number; businessName: string; autoResponder: string | null; code: string },
): Promise<boolean> {
  const { install, lang } = input;
  const deps = ctx.deps;
  const confirm =
    input.autoResponder !== null &&
    !(await wroteToContactSince(ctx, {
      contactId: input.contactId,
      since: new Date(Date.now() - CONFIRMATION_QUIET_MS),
    }));
  const withCode = limits(ctx).codeTexts.take(`${install.id}:${input.contactId}`);
  if (!confirm && !withCode) return false;
  if (!limits(ctx).confirmations.take(`install:${install.id}`)) {
    deps.log.warn({ installId: install.id }, 'widget: texts to visitors of this install throttled');
    return false;
  }
  const business = input.businessName || '';
  const lines: string[] = [];
  if (confirm) lines.push(input.autoResponder || translate('widget.sms_confirmation', lang, { business }));
  if (withCode) lines.push(translate('widget.sms_code', lang, { business, code: input.code }));
  try {
    await sendMessage(ctx, { contactId: input.contactId, body: lines.join('\n') });
    return withCode;
  } catch (err) {
    deps.log.warn({ err, installId: install.id }, 'widget: text to the visitor not sent');
    return false;
  }
}

/** A 'text us' token of this install, with its contact and thread (a callback's token has none: 401). */
function conversationOf(ctx: Ctx, given: string): { token: VisitorToken; contactId: number; thread: string } {
  const token = verifyToken(ctx, given);
  if (!token.contactId || !token.thread)
    throw new AppError('UNAUTHENTICATED', 'widget.token_no_conversation');
  return { token, contactId: token.contactId, thread: token.thread };
}

/**
 * The refusals of anything that texts the visitor's phone after the first text (a reply, a code): texting
 * switched off, the month's messages used up, a carrier that cannot text. Answers the modes.
 */
async function stillTexting(ctx: Ctx, install: WidgetInstall) {
  const m = await modes(ctx, install);
  if (!m.texts) throw forbid('widget.texts_off');
  if ((await messageUsage(ctx)).reached) throw forbid('widget.text_limit');
  await carrierReady(ctx, install);
  return m;
}

/**
 * The visitor's fields as the install asks for them, checked here as the widget checks them first: a
 * required name or e-mail, the name check, the GDPR consent. A 422 per field; nothing is stored or sent.
 */
function checkVisitor(
  install: WidgetInstall,
  body: { name?: string | undefined; email?: string | undefined; gdpr_consent: boolean },
): void {
  const s = effectiveSettings(install.settings);
  const fields: Record<string, string> = {};
  const name = body.name?.trim() ?? '';
  const email = body.email?.trim() ?? '';
  if (s.input.IsEnableName) {
    if (!name && s.input.IsRequiredName) fields.name = 'validation.required';
    else if (name && s.input.IsEnableNameValidation && !validWidgetName(name))
      fields.name = 'validation.invalid';
  }
  if (s.input.IsEnableEmail && s.input.IsRequiredEmail && !email) fields.email = 'validation.required';
  if (s.gdpr_consent && !body.gdpr_consent) fields.gdpr_consent = 'validation.required';
  if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', undefined, fields);
}

/**
 * The refusals before a call is rung or booked: calls switched off, the visitor's fields, a carrier that
 * cannot dial.
 */
async function mayCall(ctx: Ctx, install: WidgetInstall, body: TWidgetCallbackRequest): Promise<void> {
  if (!(await modes(ctx, install)).calls) throw forbid('widget.calls_off');
  checkVisitor(install, body);
  await carrierReady(ctx, install);
}

/**
 * The consents a visitor gave (GDPR, offers by text), kept in the business's audit trail with the install,
 * the phone, the address and the time: what a business must be able to show later.
 */
async function recordConsents(
  ctx: Ctx,
  install: WidgetInstall,
  body: { phone: string; gdpr_consent: boolean; promotion_consent: boolean },
  via: 'callback' | 'schedule' | 'text',
): Promise<void> {
  if (!body.gdpr_consent && !body.promotion_consent) return;
  await audit(ctx, {
    action: 'widget.consent',
    actorId: null,
    agencyId: install.agencyId,
    businessId: install.businessId,
    data: {
      install_id: install.id,
      phone: body.phone,
      via,
      gdpr: body.gdpr_consent,
      promotion: body.promotion_consent,
    },
    ...auditClient(ctx),
  });
}

/** What a bot that filled the honeypot gets: an answer of the right shape that leads nowhere. */
function decoyMessage(body: string): TWidgetMessage {
  return {
    id: 0,
    direction: 'in',
    body,
    media: [],
    status: 'received',
    created_at: new Date().toISOString(),
  };
}

/** The install's public configuration: its modes, whether a callback can be asked now, images, settings. */
export async function widgetConfig(ctx: Ctx, { install }: Visit): Promise<TWidgetConfig> {
  const settings = effectiveSettings(install.settings);
  const [m, images, usage, base, leadFormId] = await Promise.all([
    modes(ctx, install),
    installImages(ctx, { id: install.id }),
    callUsage(ctx),
    agencySiteAddress(ctx, { id: install.agencyId }),
    installLeadFormId(ctx, { settings: install.settings }),
  ]);
  return {
    id: install.id,
    business_name: m.business.name,
    widget_type: m.type,
    open_now: m.calls && isOpenAt(settings, new Date()) && !usage.reached,
    logo: absolute(base, images.logo),
    widget_icon: absolute(base, images.widget_icon),
    settings: publicSettings(install.settings),
    // The LeadLabel trigger's form: named only while it is on and active, so the ETag follows a toggle.
    lead_form_id: leadFormId,
    analytics: m.business.analytics,
  };
}

/** An instant callback: staff phones ring and the visitor is connected; the token follows the call. */
export async function askCallback(
  ctx: Ctx,
  { install, body }: Visit & { body: TWidgetCallbackRequest & Honeypot },
): Promise<TWidgetCallbackAnswer> {
  const seconds = effectiveSettings(install.settings).callback_seconds;
  if (body.website)
    return { status: 'calling', call_id: null, callback_seconds: seconds, next_slots: [], token: null };
  await mayCall(ctx, install, body);
  // Caps beside the per-address and per-phone ones: the install's callbacks a minute (many addresses
  // cannot ring the staff a hundred times) and one phone's callbacks a day (a third party's number).
  if (!limits(ctx).callbacksPerInstall.take(`install:${install.id}`)) throw tooMany('widget.callbacks_busy');
  const answer = await requestCallback(ctx, {
    installId: install.id,
    install: widgetInstallForCalls(install),
    // The phone's callbacks of the last day: counted with the call's checks, refused before them.
    phoneCap: {
      since: new Date(Date.now() - DAY_MS),
      max: ctx.deps.config.widgetCallbacksPerPhoneDay,
      refusal: () => tooMany('widget.callbacks_phone_day'),
    },
    phone: body.phone,
    name: body.name,
    email: body.email || undefined,
    ip: addressOf(ctx),
    departmentId: body.department_id,
  });
  if (answer.call_id) await recordConsents(ctx, install, body, 'callback');
  return { ...answer, token: answer.call_id ? signToken(ctx, { callId: answer.call_id }) : null };
}

/** The install's bookable times, the next `days` days, in its time zone. */
export function widgetSlots(_ctx: Ctx, { install, days }: Visit & { days: number }): TWidgetSlots {
  const settings = effectiveSettings(install.settings);
  return { timezone: settings.timezone, slots: bookableSlots(settings, new Date(), days) };
}

/** A call booked by the visitor for a later time, inside the install's hours. */
export async function bookWidgetCall(
  ctx: Ctx,
  { install, body }: Visit & { body: TWidgetScheduleRequest & Honeypot },
): Promise<TWidgetScheduleAnswer> {
  if (body.website) return { id: null, scheduled_for: body.scheduled_at };
  await mayCall(ctx, install, body);
  // Bookings are throttled like callbacks: per address and per phone (and at most a few pending).
  if (
    !limits(ctx).schedulesPerAddress.take(addressOf(ctx)) ||
    !limits(ctx).schedulesPerPhone.take(phoneKey(install.id, body.phone))
  )
    throw new AppError('TOO_MANY', 'calls.throttled', undefined, {}, 'calls.throttle');
  const call = await scheduleCall(ctx, {
    installId: install.id,
    phone: body.phone,
    name: body.name,
    email: body.email || undefined,
    departmentId: body.department_id,
    scheduledAt: new Date(body.scheduled_at),
    requireOpen: true,
  });
  await recordConsents(ctx, install, body, 'schedule');
  return { id: call.id, scheduled_for: call.scheduled_for };
}

/** 'Text us': the visitor's text starts a conversation in the inbox that goes on by SMS. */
export async function textUs(
  ctx: Ctx,
  { install, lang, body }: VisitIn & { body: TWidgetTextUsRequest & Honeypot },
): Promise<TWidgetTextAnswer> {
  if (body.website)
    return {
      token: signToken(ctx, {}),
      message: decoyMessage(body.message),
      verified: false,
      code_sent: true,
    };
  const m = await modes(ctx, install);
  if (!m.texts) throw forbid('widget.texts_off');
  checkVisitor(install, body);
  await carrierReady(ctx, install);
  if (!limits(ctx).textsPerAddress.take(addressOf(ctx))) throw textThrottled();
  if (!limits(ctx).textsPerPhone.take(phoneKey(install.id, body.phone))) throw textThrottled();
  // Every refusal comes before anything is stored: the number, the install's texting number, the
  // business's monthly messages (the conversation goes on by SMS, which it could not pay for).
  const { from } = await checkWidgetText(ctx, { installId: install.id, phone: body.phone });
  if ((await messageUsage(ctx)).reached) throw forbid('widget.text_limit');
  // The visitor's own texts carry the conversation's thread: until the phone is proven, that is all
  // the token shows.
  const thread = newThread();
  const { contact, message } = await receiveWidgetText(ctx, {
    installId: install.id,
    phone: body.phone,
    body: body.message,
    from,
    thread,
  });
  await rememberVisitor(ctx, contact, body);
  await recordConsents(ctx, install, body, 'text');
  const conversation = { contactId: contact.id, thread };
  const codeSent = await textVisitor(ctx, {
    install,
    lang,
    contactId: contact.id,
    businessName: m.business.name,
    autoResponder: effectiveSettings(install.settings).auto_responder,
    code: visitorCode(ctx, conversation),
  });
  return {
    token: signToken(ctx, { ...conversation, since: new Date(message.created_at) }),
    message,
    verified: false,
    code_sent: codeSent,
  };
}

/** The code texted to the visitor's phone: the same conversation's token, now showing the replies. */
export async function verifyVisitorCode(
  ctx: Ctx,
  { install, body }: Visit & { body: TWidgetVerifyRequest },
): Promise<TWidgetVerifyAnswer> {
  const { token, contactId, thread } = conversationOf(ctx, body.token);
  // Guesses are counted in the database per code and per phone (the contact) a day, not per token or
  // process: a new conversation, another process or a restart gives no more. A 6-digit code with 10
  // guesses a day makes a lucky guess a matter of centuries.
  const guess = await takeGuess(
    ctx,
    { businessId: install.businessId, contactId, thread },
    { perCode: CODE_GUESSES_PER_CODE, perPhoneDay: CODE_GUESSES_PER_PHONE_DAY },
  );
  if (guess === null) throw tooMany('widget.code_throttled');
  if (!codeMatches(ctx, { contactId, thread, typed: body.code }))
    throw new AppError('VALIDATION', undefined, { code: 'widget.code_wrong' });
  await rightGuess(ctx, guess);
  return {
    token: signToken(ctx, { contactId, thread, since: new Date(token.since), verified: true }),
    verified: true,
  };
}

/** The code texted to the visitor's phone again, within the same daily budget as with the first text. */
export async function resendVisitorCode(
  ctx: Ctx,
  { install, lang, body }: VisitIn & { body: TWidgetCodeRequest },
): Promise<TWidgetCodeAnswer> {
  const { contactId, thread } = conversationOf(ctx, body.token);
  const m = await stillTexting(ctx, install);
  const sent = await textVisitor(ctx, {
    install,
    lang,
    contactId,
    businessName: m.business.name,
    autoResponder: null,
    code: visitorCode(ctx, { contactId, thread }),
  });
  if (!sent)
    throw new AppError('TOO_MANY', 'widget.code_resend_throttled', undefined, {}, 'widget.code_throttled');
  return { code_sent: true };
}

/** The visitor writes again in the conversation their token names. */
export async function replyAsVisitor(
  ctx: Ctx,
  { install, body }: Visit & { body: TWidgetReplyRequest & Honeypot },
): Promise<TWidgetMessage> {
  const { contactId, thread } = conversationOf(ctx, body.token);
  if (body.website) return decoyMessage(body.message);
  // The same refusals as the first text: texting switched off, the month's messages used up.
  await stillTexting(ctx, install);
  if (!limits(ctx).textsPerPhone.take(`${install.id}:contact:${contactId}`)) throw textThrottled();
  return replyFromWidget(ctx, { installId: install.id, contactId, body: body.message, thread });
}

/** The visitor's messages with this install since their first text, oldest first (the latest 100). */
export async function visitorConversation(
  ctx: Ctx,
  { install, token: given }: Visit & { token: string },
): Promise<TWidgetConversation> {
  const token = verifyToken(ctx, given);
  // Before the phone is proven, only what this widget conversation typed (its thread): never the phone's
  // own texts nor the business's answers to whoever holds that number (ADR 048).
  if (!token.contactId || !(token.verified || token.thread)) return { messages: [] };
  return {
    messages: await widgetConversation(ctx, {
      installId: install.id,
      contactId: token.contactId,
      since: new Date(token.since),
      limit: CONVERSATION_LIMIT,
      ...(token.verified || !token.thread ? {} : { thread: token.thread }),
    }),
  };
}
