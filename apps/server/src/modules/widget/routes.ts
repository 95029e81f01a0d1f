// The website widget's public API (/api/widget/v1/..., issue 11, ADR 041): the install's config, the
// instant callback and a scheduled call, the bookable times, 'text us' and the visitor's conversation.
// The widget tree (platform/widget/tree.ts) has already found the install by its key, granted CORS to the
// page's origin and applied the per-address and per-install limits; `request.lang` follows
// Accept-Language (en, es, br). The work is the other modules' (installs, telephony, chats, contacts);
// this file decides what a visitor may ask and signs the token that lets their page follow it.

import crypto from 'node:crypto';
import { translate } from '@stn/contracts/i18n';
import { isOpenAt, publicSettings } from '@stn/contracts/installs';
import type {
  TWidgetCallbackAnswer,
  TWidgetCodeAnswer,
  TWidgetConfig,
  TWidgetConversation,
  TWidgetMessage,
  TWidgetSlots,
  TWidgetTextAnswer,
  TWidgetVerifyAnswer,
} from '@stn/contracts/widget';
import {
  validWidgetName,
  ZWidgetCallbackRequest,
  ZWidgetCodeRequest,
  ZWidgetReplyRequest,
  ZWidgetScheduleRequest,
  ZWidgetTextUsRequest,
  ZWidgetVerifyRequest,
} from '@stn/contracts/widget';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as zm from 'zod/mini';
import type { Deps } from '../../platform/deps.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { RateLimiter, type WidgetInstall, widgetOf } from '../../platform/widget/tree.ts';
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
import { effectiveSettings, installImages } from '../installs/service.ts';
import {
  bookableSlots,
  callbacksToPhoneSince,
  carrierFor,
  MAX_SLOT_DAYS,
  requestCallback,
  scheduleCall,
} from '../telephony/service.ts';
import { rightGuess, takeGuess } from './code-guesses.ts';
import { codeMatches, newThread, signToken, type VisitorToken, verifyToken, visitorCode } from './token.ts';

/** A field people leave empty and form-filling robots fill: a filled one is answered and ignored. */
const honeypot = { website: zm.optional(zm.string().check(zm.maxLength(500))) };
const ZCallbackBody = zm.object({ ...ZWidgetCallbackRequest.shape, ...honeypot });
const ZScheduleBody = zm.object({ ...ZWidgetScheduleRequest.shape, ...honeypot });
const ZTextBody = zm.object({ ...ZWidgetTextUsRequest.shape, ...honeypot });
const ZReplyBody = zm.object({ ...ZWidgetReplyRequest.shape, ...honeypot });
const ZVerifyBody = ZWidgetVerifyRequest;
const ZCodeBody = ZWidgetCodeRequest;

/** Texts (first and replies) one visitor phone may send a minute. */
export const TEXTS_PER_PHONE_MINUTE = 5;
/** Confirmation texts one install may send an hour, whoever asks (the business's messages are its own). */
export const CONFIRMATIONS_PER_INSTALL_HOUR = 30;
/** A phone gets the confirmation once a day: later texts in the same conversation send nothing. */
const CONFIRMATION_QUIET_MS = 24 * 3_600_000;
/** Wrong guesses that lock one conversation's code for good (counted in the database, every process). */
export const CODE_GUESSES_PER_CODE = 5;
/** Wrong guesses that lock one phone's codes with a business for a day (any conversation, token, address). */
export const CODE_GUESSES_PER_PHONE_DAY = 10;
/** Codes texted to one phone a day (with a first text or asked again): 'text us' is no way to flood a phone. */
export const CODE_TEXTS_PER_PHONE_DAY = 3;
/** The visitor's conversation shows its latest messages, up to this many. */
export const CONVERSATION_LIMIT = 100;

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
function limits(deps: Deps): Limits {
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

/** A day, for the per-destination cap of callbacks. */
const DAY_MS = 24 * 3_600_000;

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

const phoneKey = (installId: number, phone: string) => `${installId}:${phone}`;

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
  request: FastifyRequest,
  install: WidgetInstall,
  input: { contactId: number; businessName: string; autoResponder: string | null; code: string },
): Promise<boolean> {
  const deps = ctx.deps;
  const confirm =
    input.autoResponder !== null &&
    !(await wroteToContactSince(ctx, {
      contactId: input.contactId,
      since: new Date(Date.now() - CONFIRMATION_QUIET_MS),
    }));
  const withCode = limits(deps).codeTexts.take(`${install.id}:${input.contactId}`);
  if (!confirm && !withCode) return false;
  if (!limits(deps).confirmations.take(`install:${install.id}`)) {
    deps.log.warn({ installId: install.id }, 'widget: texts to visitors of this install throttled');
    return false;
  }
  const business = input.businessName || '';
  const lines: string[] = [];
  if (confirm)
    lines.push(input.autoResponder || translate('widget.sms_confirmation', request.lang, { business }));
  if (withCode) lines.push(translate('widget.sms_code', request.lang, { business, code: input.code }));
  try {
    await sendMessage(ctx, { contactId: input.contactId, body: lines.join('\n') });
    return withCode;
  } catch (err) {
    deps.log.warn({ err, installId: install.id }, 'widget: text to the visitor not sent');
    return false;
  }
}

/** A 'text us' token of this install, with its contact and thread (a callback's token has none: 401). */
function conversationOf(
  deps: Deps,
  given: string,
  installId: number,
): { token: VisitorToken; contactId: number; thread: string } {
  const token = verifyToken(deps, given, installId);
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
  body: { name?: string; email?: string; gdpr_consent: boolean },
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
 * The consents a visitor gave (GDPR, offers by text), kept in the business's audit trail with the install,
 * the phone, the address and the time: what a business must be able to show later.
 */
async function recordConsents(
  ctx: Ctx,
  request: FastifyRequest,
  install: WidgetInstall,
  body: { phone: string; gdpr_consent: boolean; promotion_consent: boolean },
  via: 'callback' | 'schedule' | 'text',
): Promise<void> {
  if (!body.gdpr_consent && !body.promotion_consent) return;
  await audit(ctx.db, {
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
    ip: request.ip,
    requestId: request.id,
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

export async function widgetRoutes(tree: FastifyInstance, deps: Deps): Promise<void> {
  tree.get(
    '/v1/config',
    {
      schema: {
        tags: ['widget'],
        summary: "The install's public widget configuration (ETag, cached 60 s)",
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      const settings = effectiveSettings(install.settings);
      const [m, images, usage, base] = await Promise.all([
        modes(ctx, install),
        installImages(ctx, { id: install.id }),
        callUsage(ctx),
        agencySiteAddress(ctx, { id: install.agencyId }),
      ]);
      const data: TWidgetConfig = {
        id: install.id,
        business_name: m.business.name,
        widget_type: m.type,
        open_now: m.calls && isOpenAt(settings, new Date()) && !usage.reached,
        logo: absolute(base, images.logo),
        widget_icon: absolute(base, images.widget_icon),
        settings: publicSettings(install.settings),
      };
      const body = JSON.stringify({ success: true, data });
      const etag = `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;
      reply.header('etag', etag);
      // open_now moves with the clock: a minute of caching at most.
      reply.header('cache-control', 'public, max-age=60, must-revalidate');
      reply.header('vary', 'Origin, X-Install-Key');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  tree.post(
    '/v1/callback',
    {
      schema: {
        tags: ['widget'],
        summary: 'A visitor asks for an instant callback: staff phones ring, the visitor is connected',
        body: ZCallbackBody,
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZCallbackBody>;
      const seconds = effectiveSettings(install.settings).callback_seconds;
      if (body.website) {
        const decoy: TWidgetCallbackAnswer = {
          status: 'calling',
          call_id: null,
          callback_seconds: seconds,
          next_slots: [],
          token: null,
        };
        return { success: true as const, data: decoy };
      }
      if (!(await modes(ctx, install)).calls) throw forbid('widget.calls_off');
      checkVisitor(install, body);
      await carrierReady(ctx, install);
      // Caps beside the per-address and per-phone ones: the install's callbacks a minute (many addresses
      // cannot ring the staff a hundred times) and one phone's callbacks a day (a third party's number).
      if (!limits(deps).callbacksPerInstall.take(`install:${install.id}`))
        throw tooMany('widget.callbacks_busy');
      const today = await callbacksToPhoneSince(ctx, {
        phone: body.phone,
        since: new Date(Date.now() - DAY_MS),
      });
      if (today >= deps.config.widgetCallbacksPerPhoneDay) throw tooMany('widget.callbacks_phone_day');
      const answer = await requestCallback(ctx, {
        installId: install.id,
        phone: body.phone,
        name: body.name,
        email: body.email || undefined,
        ip: request.ip,
        departmentId: body.department_id,
      });
      if (answer.call_id) await recordConsents(ctx, request, install, body, 'callback');
      const data: TWidgetCallbackAnswer = {
        ...answer,
        token: answer.call_id ? signToken(deps, { installId: install.id, callId: answer.call_id }) : null,
      };
      return { success: true as const, data };
    },
  );

  tree.get(
    '/v1/slots',
    {
      schema: {
        tags: ['widget'],
        summary: "The install's bookable times (every 30 minutes inside its hours), the next `days` days",
        querystring: zm.object({
          days: zm._default(zm.coerce.number().check(zm.int(), zm.minimum(1), zm.maximum(MAX_SLOT_DAYS)), 7),
          key: zm.optional(zm.string()),
        }),
      },
    },
    async (request) => {
      const { install } = widgetOf(request);
      const { days } = request.query as { days: number };
      const settings = effectiveSettings(install.settings);
      const data: TWidgetSlots = {
        timezone: settings.timezone,
        slots: bookableSlots(settings, new Date(), days),
      };
      return { success: true as const, data };
    },
  );

  tree.post(
    '/v1/schedule',
    {
      schema: {
        tags: ['widget'],
        summary: 'A visitor schedules a call for a later time, within the install hours',
        body: ZScheduleBody,
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZScheduleBody>;
      if (body.website)
        return { success: true as const, data: { id: null, scheduled_for: body.scheduled_at } };
      if (!(await modes(ctx, install)).calls) throw forbid('widget.calls_off');
      checkVisitor(install, body);
      await carrierReady(ctx, install);
      // Bookings are throttled like callbacks: per address and per phone (and at most a few pending).
      if (
        !limits(deps).schedulesPerAddress.take(request.ip) ||
        !limits(deps).schedulesPerPhone.take(phoneKey(install.id, body.phone))
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
      await recordConsents(ctx, request, install, body, 'schedule');
      return { success: true as const, data: { id: call.id, scheduled_for: call.scheduled_for } };
    },
  );

  tree.post(
    '/v1/text',
    {
      schema: {
        tags: ['widget'],
        summary: "'Text us': the visitor's text starts a conversation in the inbox that goes on by SMS",
        body: ZTextBody,
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZTextBody>;
      if (body.website) {
        const decoy: TWidgetTextAnswer = {
          token: signToken(deps, { installId: install.id }),
          message: decoyMessage(body.message),
          verified: false,
          code_sent: true,
        };
        return { success: true as const, data: decoy };
      }
      const m = await modes(ctx, install);
      if (!m.texts) throw forbid('widget.texts_off');
      checkVisitor(install, body);
      await carrierReady(ctx, install);
      if (!limits(deps).textsPerAddress.take(request.ip))
        throw new AppError('TOO_MANY', 'widget.text_throttled', undefined, {}, 'widget.text_throttled');
      if (!limits(deps).textsPerPhone.take(phoneKey(install.id, body.phone)))
        throw new AppError('TOO_MANY', 'widget.text_throttled', undefined, {}, 'widget.text_throttled');
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
      await recordConsents(ctx, request, install, body, 'text');
      const conversation = { installId: install.id, contactId: contact.id, thread };
      const codeSent = await textVisitor(ctx, request, install, {
        contactId: contact.id,
        businessName: m.business.name,
        autoResponder: effectiveSettings(install.settings).auto_responder,
        code: visitorCode(deps, conversation),
      });
      const data: TWidgetTextAnswer = {
        token: signToken(deps, { ...conversation, since: new Date(message.created_at) }),
        message,
        verified: false,
        code_sent: codeSent,
      };
      return { success: true as const, data };
    },
  );

  tree.post(
    '/v1/text/verify',
    {
      schema: {
        tags: ['widget'],
        summary: "The code texted to the visitor's phone: the token then shows the business's replies",
        body: ZVerifyBody,
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZVerifyBody>;
      const { token, contactId, thread } = conversationOf(deps, body.token, install.id);
      // Guesses are counted in the database per code and per phone (the contact) a day, not per token or
      // process: a new conversation, another process or a restart gives no more. A 6-digit code with 10
      // guesses a day makes a lucky guess a matter of centuries.
      const guess = await takeGuess(
        ctx,
        { businessId: install.businessId, contactId, thread },
        { perCode: CODE_GUESSES_PER_CODE, perPhoneDay: CODE_GUESSES_PER_PHONE_DAY },
      );
      if (guess === null)
        throw new AppError('TOO_MANY', 'widget.code_throttled', undefined, {}, 'widget.code_throttled');
      if (!codeMatches(deps, { installId: install.id, contactId, thread }, body.code))
        throw new AppError('VALIDATION', undefined, { code: 'widget.code_wrong' });
      await rightGuess(ctx, guess);
      const data: TWidgetVerifyAnswer = {
        token: signToken(deps, {
          installId: install.id,
          contactId,
          thread,
          since: new Date(token.since),
          verified: true,
        }),
        verified: true,
      };
      return { success: true as const, data };
    },
  );

  tree.post(
    '/v1/text/code',
    {
      schema: {
        tags: ['widget'],
        summary: "The code texted to the visitor's phone again",
        body: ZCodeBody,
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZCodeBody>;
      const { contactId, thread } = conversationOf(deps, body.token, install.id);
      const m = await stillTexting(ctx, install);
      // The same daily budget of codes per phone as with the first text (textVisitor takes from it).
      const data: TWidgetCodeAnswer = {
        code_sent: await textVisitor(ctx, request, install, {
          contactId,
          businessName: m.business.name,
          autoResponder: null,
          code: visitorCode(deps, { installId: install.id, contactId, thread }),
        }),
      };
      if (!data.code_sent)
        throw new AppError(
          'TOO_MANY',
          'widget.code_resend_throttled',
          undefined,
          {},
          'widget.code_throttled',
        );
      return { success: true as const, data };
    },
  );

  tree.post(
    '/v1/text/reply',
    {
      schema: {
        tags: ['widget'],
        summary: 'The visitor writes again in the conversation their token names',
        body: ZReplyBody,
      },
    },
    async (request) => {
      const { install, ctx } = widgetOf(request);
      const body = request.body as zm.infer<typeof ZReplyBody>;
      const { contactId, thread } = conversationOf(deps, body.token, install.id);
      if (body.website) return { success: true as const, data: decoyMessage(body.message) };
      // The same refusals as the first text: texting switched off, the month's messages used up.
      await stillTexting(ctx, install);
      if (!limits(deps).textsPerPhone.take(`${install.id}:contact:${contactId}`))
        throw new AppError('TOO_MANY', 'widget.text_throttled', undefined, {}, 'widget.text_throttled');
      const message = await replyFromWidget(ctx, {
        installId: install.id,
        contactId,
        body: body.message,
        thread,
      });
      return { success: true as const, data: message };
    },
  );

  tree.get(
    '/v1/conversation',
    {
      schema: {
        tags: ['widget'],
        summary:
          "The visitor's messages with this install since their first text, oldest first (the latest 100)",
        querystring: zm.object({
          token: zm.string().check(zm.maxLength(1000)),
          key: zm.optional(zm.string()),
        }),
      },
    },
    async (request, reply) => {
      const { install, ctx } = widgetOf(request);
      // The visitor's own messages: kept by no cache on the way (the URL carries the token).
      reply.header('cache-control', 'no-store');
      const token = verifyToken(deps, (request.query as { token: string }).token, install.id);
      const data: TWidgetConversation = {
        // Before the phone is proven, only what this widget conversation typed (its thread): never the
        // phone's own texts nor the business's answers to whoever holds that number (ADR 048).
        messages:
          token.contactId && (token.verified || token.thread)
            ? await widgetConversation(ctx, {
                installId: install.id,
                contactId: token.contactId,
                since: new Date(token.since),
                limit: CONVERSATION_LIMIT,
                ...(token.verified || !token.thread ? {} : { thread: token.thread }),
              })
            : [],
      };
      return { success: true as const, data };
    },
  );
}
