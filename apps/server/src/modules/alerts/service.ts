// The staff's notifications (issue 24, ADR 082): a missed call, a voicemail, a new lead from the widget (a
// callback or a scheduled call) and an inbound text reach the staff by e-mail, SMS and push, by the
// install's settings (`notification_type`, `sms_notification_type`, its addresses) under the business's
// switches (its "notification" settings). Lead forms keep their own notice (leadforms/notify.ts, ADR 074).
//
// Each event's notice (`noticeAlertOfBatch`, for the events of a business that came together) decides and
// writes, in one transaction, the e-mails (the outbox and its delivery jobs) and the jobs of the other
// channels (`alerts.text`, `alerts.push`): a notice that fails half-way writes nothing and is retried whole
// by a job (`alerts.notice`); a channel that fails is retried alone. The notices are worked in the process
// that saw their events (ADR 123).
import type { TLanguage } from '@stn/contracts/constants';
import { translate } from '@stn/contracts/i18n';
import { widgetPhoneToE164 } from '@stn/contracts/widget';
import { z } from 'zod';
import { usersOnline } from '../../platform/auth/sessions.ts';
import { AppError } from '../../platform/http/errors.ts';
import { type Ctx, inTransaction } from '../../platform/tenancy/context.ts';
import { businessName, businessNotificationSettings } from '../businesses/service.ts';
import {
  CARRIER_REFUSED_FOR_NOW,
  conversationAudience,
  messageNotice,
  sendTestText,
} from '../chats/service.ts';
import { type ContactRow, contactByPhone, contactsByIds } from '../contacts/service.ts';
import { type InstallForCalls, installForCalls } from '../installs/service.ts';
import { hasSubscriptions, pushToUsers } from '../push/service.ts';
import { installTextNumber } from '../telephony/service.ts';
import { activeBusinessAdminIds, activeBusinessAdmins } from '../users/service.ts';

export const ALERT_KINDS = ['missed_call', 'voicemail', 'callback', 'booking', 'message'] as const;
export type TAlertKind = (typeof ALERT_KINDS)[number];

export const ZAlert = z.object({
  agencyId: z.number(),
  businessId: z.number(),
  installId: z.number(),
  kind: z.enum(ALERT_KINDS),
  phone: z.string(),
  name: z.string().nullable(),
  callId: z.number().optional(),
  voiceRecordId: z.number().optional(),
  duration: z.number().optional(),
  messageId: z.number().optional(),
  contactId: z.number().optional(),
});
export type TAlert = z.infer<typeof ZAlert>;

/** The business's switch each kind answers to (absent = on). */
const TOPIC = {
  missed_call: 'missed_call',
  voicemail: 'missed_call',
  callback: 'new_lead',
  booking: 'new_lead',
  message: 'new_message',
} as const;

/** Where a push opens the app. */
const URL_OF: Record<TAlertKind, string> = {
  missed_call: '/business/calls',
  voicemail: '/business/voice-records',
  callback: '/business/calls',
  booking: '/business/schedule/calls',
  message: '/business/messaging',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PREVIEW = 160;

export type Delivery = {
  email: { to: string[]; subject: string; text: string } | null;
  sms: { to: string; from: string; body: string } | null;
  push: { userIds: number[]; title: string; body: string; url: string; tag: string } | null;
};

/** The users who may see the conversation with this phone (the inbox's rule), else the business's admins. */
async function audienceOf(ctx: Ctx, a: TAlert): Promise<number[]> {
  const contactId = a.contactId ?? (await contactByPhone(ctx, a.phone))?.id;
  const seen = contactId
    ? ((await conversationAudience(ctx, { contactIds: [contactId] })).get(contactId) ?? [])
    : [];
  if (seen.length > 0) return seen;
  return activeBusinessAdminIds(ctx, { agencyId: a.agencyId, businessIds: [a.businessId] });
}

async function emailsTo(ctx: Ctx, a: TAlert, installList: string, businessList: string[] | undefined) {
  const split = (list: string) =>
    list
      .split(/[,;\s]+/)
      .map((x) => x.trim())
      .filter((x) => EMAIL.test(x));
  const fromInstall = split(installList);
  if (fromInstall.length) return fromInstall;
  const fromBusiness = (businessList ?? []).filter((x) => EMAIL.test(x));
  if (fromBusiness.length) return fromBusiness;
  const admins = await activeBusinessAdmins(ctx, { agencyId: a.agencyId, businessIds: [a.businessId] });
  return admins.map((u) => u.email);
}

/**
 * The rules of planAlert that need neither the contact nor the message, in its order: the install must
 * exist and not be `none`; the business's switch of the kind must not be off; a text notifies by
 * `sms_notification_type` (never, always, or while none of those who may see it is online). Answers the
 * install and the business's settings when the event may notify, else null.
 */
async function mayNotify(ctx: Ctx, a: TAlert, batch?: AlertBatch) {
  const install = await (batch ? batch.install(a.installId) : installForCalls(ctx, a.installId));
  if (!install || install.status === 'deleted') return null;
  const s = install.settings;
  if (s.notification_type === 'none') return null;
  const business = await (batch ? batch.business() : businessNotificationSettings(ctx));
  if (business[TOPIC[a.kind]] === false) return null;
  if (a.kind === 'message') {
    if (s.sms_notification_type === 'none') return null;
    if (s.sms_notification_type === 'offline') {
      // A batch has read who may see each conversation, and who of them is online, once for all.
      const seen = a.contactId ? batch?.audience.get(a.contactId) : undefined;
      if (seen?.length && batch) {
        if (seen.some((u) => batch.online.has(u))) return null;
      } else {
        const audience = await audienceOf(ctx, a);
        if ((await usersOnline(ctx.db, audience)).length > 0) return null;
      }
    }
  }
  return { install, business };
}

/**
 * What one event notifies, on which channel, to whom (null: that channel stays quiet). The rules, in order:
 * the install must exist and not be `none`; the business's switch of the kind must not be off; a text
 * notifies by `sms_notification_type` (never, always, or while none of those who may see it is online);
 * then `notification_type` picks e-mail and SMS, each unless the business switched that channel off; push
 * goes to those who may see it unless the business switched desktop notifications off or has no browser
 * subscribed (texts are pushed by the push module already, ADR 037).
 */
export async function planAlert(ctx: Ctx, alert: TAlert, batch?: AlertBatch): Promise<Delivery | null> {
  const notifies = await mayNotify(ctx, alert, batch);
  if (!notifies) return null;
  const { install, business } = notifies;
  let a = alert;
  if (a.contactId && !a.phone) {
    const contactId = a.contactId;
    const contact = batch ? await batch.contact(contactId) : (await contactsByIds(ctx, [contactId]))[0];
    if (!contact) return null;
    const name = `${contact.first_name} ${contact.last_name}`.trim();
    a = { ...a, phone: contact.phone, name: a.name ?? (name || null) };
  }
  const s = install.settings;
  let text = '';
  if (a.kind === 'message') {
    text = a.messageId ? ((await messageNotice(ctx, a.messageId))?.text ?? '') : '';
    if (text.length > PREVIEW) text = `${text.slice(0, PREVIEW)}…`;
  }

  const language: TLanguage = s.language;
  const contactName = a.name?.trim() || '';
  const params = {
    name: contactName || a.phone,
    phone: a.phone,
    install: install.name,
    seconds: a.duration ?? 0,
    text,
  };
  const subject = translate(`alerts.${a.kind}_subject`, language, params);
  const body = translate(`alerts.${a.kind}_body`, language, params);
  const type = s.notification_type;

  const email =
    (type === 'email' || type === 'both') && business.email_notifications !== false
      ? {
          to: await emailsTo(ctx, a, s.notification_email, business.notification_emails),
          subject,
          text: `${body}\n\n${translate('alerts.settings_hint', language, params)}`,
        }
      : null;

  let sms: Delivery['sms'] = null;
  if ((type === 'sms' || type === 'both') && business.sms_notifications !== false) {
    const to =
      widgetPhoneToE164(s.notification_phone) ?? widgetPhoneToE164(business.notification_phone ?? '');
    const from = await installTextNumber(ctx, install.id);
    if (to && from) sms = { to, from, body };
    else
      ctx.deps.log.warn({ installId: install.id }, 'staff alert: no phone to text, or no number that texts');
  }

  // Who may see it is read only when a browser of the business is subscribed (the push job would find none).
  const push =
    a.kind !== 'message' && business.desktop_notifications !== false && (await hasSubscriptions(ctx))
      ? {
          userIds: await audienceOf(ctx, a),
          title: subject,
          body,
          url: URL_OF[a.kind],
          tag: `${a.kind}-${a.voiceRecordId ?? a.callId ?? a.messageId ?? a.phone}`,
        }
      : null;

  return { email: email?.to.length ? email : null, sms, push: push?.userIds.length ? push : null };
}

/**
 * Works one event's notice: the e-mails go to the outbox and the text and the push are enqueued, all in one
 * transaction (a failure leaves nothing, and the job's retry starts over).
 */
export async function noticeAlert(
  ctx: Ctx,
  a: TAlert,
  jobs: {
    text: (ctx: Ctx, p: NonNullable<Delivery['sms']>) => Promise<unknown>;
    push: (ctx: Ctx, p: NonNullable<Delivery['push']>) => Promise<unknown>;
  },
): Promise<Delivery | null> {
  return inTransaction(ctx, async (tx) => {
    const plan = await planAlert(tx, a);
    if (!plan) return null;
    return writeAlert(tx, a, plan, jobs);
  });
}

/**
 * What a batch of events' notices read once for all: who may see each texted conversation and who of
 * those is online; their contacts once the first notice that may send something asks (a text nobody is to be told
 * of needs none); each install's and the business's settings once when asked.
 */
export type AlertBatch = {
  contact(id: number): Promise<ContactRow | undefined>;
  audience: Map<number, number[]>;
  online: Set<number>;
  install(id: number): Promise<InstallForCalls | null>;
  business(): ReturnType<typeof businessNotificationSettings>;
};

export async function prepareAlerts(ctx: Ctx, alerts: TAlert[]): Promise<AlertBatch> {
  const contactIds = [...new Set(alerts.flatMap((a) => (a.contactId ? [a.contactId] : [])))];
  // Who may see a conversation decides only a text's notice (the `offline` rule); a call's or a lead's
  // push reads its audience when a browser is subscribed (audienceOf).
  const texted = [
    ...new Set(alerts.flatMap((a) => (a.kind === 'message' && a.contactId ? [a.contactId] : []))),
  ];
  const audience = texted.length
    ? await conversationAudience(ctx, { contactIds: texted })
    : new Map<number, number[]>();
  const online = new Set(await usersOnline(ctx.db, [...new Set([...audience.values()].flat())]));
  const installs = new Map<number, Promise<InstallForCalls | null>>();
  let business: ReturnType<typeof businessNotificationSettings> | undefined;
  let contacts: Promise<Map<number, ContactRow>> | undefined;
  return {
    contact(id) {
      contacts ??= contactsByIds(
        ctx,
        contactIds.filter((c) => alerts.some((a) => a.contactId === c && !a.phone)),
      ).then((rows) => new Map(rows.map((c) => [c.id, c])));
      return contacts.then((found) => found.get(id));
    },
    audience,
    online,
    install(id) {
      let found = installs.get(id);
      if (!found) {
        found = installForCalls(ctx, id);
        installs.set(id, found);
      }
      return found;
    },
    business() {
      business ??= businessNotificationSettings(ctx);
      return business;
    },
  };
}

/**
 * One event's notice of a batch: planned from what the batch read (a notice with nothing to send writes
 * nothing, and opens no transaction), then written as `noticeAlert` writes it.
 */
export async function noticeAlertOfBatch(
  ctx: Ctx,
  a: TAlert,
  batch: AlertBatch,
  jobs: Parameters<typeof noticeAlert>[2],
): Promise<Delivery | null> {
  const plan = await planAlert(ctx, a, batch);
  if (!plan) return null;
  // A notice that writes one thing (an e-mail to one address, as a callback's usually is) needs no
  // transaction: each channel writes its own rows atomically (ADR 124).
  if (writesOf(plan) === 1) return writeAlert(ctx, a, plan, jobs);
  return inTransaction(ctx, (tx) => writeAlert(tx, a, plan, jobs));
}

/** How many messages and jobs a notice writes. */
const writesOf = (plan: Delivery): number =>
  (plan.email?.to.length ?? 0) + (plan.sms ? 1 : 0) + (plan.push ? 1 : 0);

/** Writes a planned notice, in `tx`'s transaction when it has one (a notice of one write needs none). */
async function writeAlert(
  tx: Ctx,
  a: TAlert,
  plan: Delivery,
  jobs: Parameters<typeof noticeAlert>[2],
): Promise<Delivery> {
  if (plan.email) {
    const fromName = await businessName(tx);
    for (const to of plan.email.to) {
      const mail = {
        to,
        subject: plan.email.subject,
        text: plan.email.text,
        agencyId: a.agencyId,
        businessId: a.businessId,
        fromName,
      };
      // Through the business's own e-mail when it has one (ADR 090), else the platform's mail; in the
      // notice's transaction when it has one.
      const db = tx.inTx ? tx.db : undefined;
      if (!(await tx.deps.ports.ownMail.send(tx, { ...mail, source: 'alert' }, db)))
        await tx.deps.mailer.send(mail, db);
    }
  }
  if (plan.sms) await jobs.text(tx, plan.sms);
  if (plan.push) await jobs.push(tx, plan.push);
  return plan;
}

/**
 * The text to the staff's phone from the install's number; a refusal (opted out, limit) is not retried, a
 * carrier's refusal for a moment (a 401, a 429: nothing sent) is, by the job. A 5xx or no answer is not: the
 * carrier may have the text (ADR 128), and a staff member texted twice is worse than a notice by e-mail and
 * push alone.
 */
export async function sendAlertText(ctx: Ctx, p: NonNullable<Delivery['sms']>): Promise<void> {
  try {
    await sendTestText(ctx, { to: p.to, from: p.from, body: p.body, media: [] });
  } catch (err) {
    if (err instanceof AppError && err.reason === CARRIER_REFUSED_FOR_NOW) throw err;
    if (err instanceof AppError) {
      ctx.deps.log.warn({ err }, 'staff alert: the text was refused');
      return;
    }
    throw err;
  }
}

export async function sendAlertPush(ctx: Ctx, p: NonNullable<Delivery['push']>): Promise<void> {
  await pushToUsers(ctx, {
    userIds: p.userIds,
    payload: { title: p.title, body: p.body, url: p.url, tag: p.tag },
  });
}
