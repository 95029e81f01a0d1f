// The inbound triggers (ADR 069): each webhook or home-advisor automation has a unique URL,
// POST /webhooks/automations/{token} (the token is the automation's `webhook_token`: knowing the URL is
// the permission, as with any such lead URL). A JSON or form body becomes a contact (made or updated by
// its phone) who enters the automation. Answers fast: 200 {ok: true} once the contact and the run's first
// step are committed; 404 for a URL that is no automation's, 409 while the automation is switched off,
// 422 naming every wrong field (nothing is changed), 429 past the rate limit.
import crypto from 'node:crypto';
import { TRIGGER_CONFIGS, type TTriggerKind } from '@stn/contracts/automations';
import { isEmail, isIsoDate } from '@stn/contracts/contacts';
import { languageFromHeader, translate } from '@stn/contracts/i18n';
import { toE164 } from '@stn/contracts/users';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { inTransaction } from '../../platform/tenancy/context.ts';
import type { WebhookRegistry } from '../../platform/webhooks/tree.ts';
import { RateLimiter } from '../../platform/widget/tree.ts';
import { type InboundContact, saveInboundContact } from '../contacts/service.ts';
import { enterContacts } from './engine.ts';
import { triggerColumns, triggerContext } from './matching.ts';
import { automations } from './tables.ts';

/** Posts one automation's URL may take a minute (a lead source retrying in a loop is cut off). */
export const INBOUND_PER_MINUTE = 120;
/** A token as the API hands them out (and as a saved request may set it): printable, no slash. */
const TOKEN = /^[!-.0-~]{16,64}$/;
const INBOUND_KINDS: readonly TTriggerKind[] = ['webhook', 'home-advisor'];

export function registerInboundTriggers(webhooks: WebhookRegistry, deps: Deps): void {
  webhooks.provider({
    name: 'automations',
    errorReply: { type: 'application/json; charset=utf-8', body: '{"ok":false}' },
    // No signature: the unguessable token in the URL is the credential, checked by the handler.
    verify: async () => true,
  });
  const limiter = new RateLimiter(INBOUND_PER_MINUTE);
  webhooks.route({
    method: 'POST',
    url: '/automations/:token',
    provider: 'automations',
    handler: (request, reply) => receive(deps, limiter, request, reply),
  });
}

type Answer = { ok: boolean; message?: string; errors?: Record<string, string> };

async function receive(deps: Deps, limiter: RateLimiter, request: FastifyRequest, reply: FastifyReply) {
  const lang = languageFromHeader(request.headers['accept-language']);
  const send = (status: number, answer: Answer) => reply.status(status).send(answer);
  const { token } = request.params as { token: string };
  const [automation] = TOKEN.test(token)
    ? await deps.db
        .select(triggerColumns)
        .from(automations)
        .where(and(eq(automations.webhook_token, token), isNull(automations.deleted_at)))
    : [];
  const kind = automation?.kind as TTriggerKind | undefined;
  if (!automation || !kind || !INBOUND_KINDS.includes(kind))
    return send(404, { ok: false, message: translate('automations_inbound.not_found', lang) });
  if (!limiter.take(token))
    return send(429, { ok: false, message: translate('automations_inbound.too_many', lang) });
  if (!automation.active)
    return send(409, { ok: false, message: translate('automations_inbound.inactive', lang) });

  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return send(422, {
      ok: false,
      message: translate('automations_inbound.body_required', lang),
      errors: { body: translate('automations_inbound.body_required', lang) },
    });
  const posted = body as Record<string, unknown>;
  const lead =
    kind === 'home-advisor'
      ? homeAdvisorLead(posted)
      : mappedLead(posted, TRIGGER_CONFIGS.webhook.safeParse(automation.trigger.config ?? {}).data?.mapping);
  const checked = checkLead(lead.contact, lang);
  if ('errors' in checked) {
    const first = Object.values(checked.errors)[0];
    return send(422, { ok: false, ...(first ? { message: first } : {}), errors: checked.errors });
  }
  const ctx = triggerContext(automation, deps, kind);
  await inTransaction(ctx, async (tx) => {
    const { contact } = await saveInboundContact(tx, checked.contact);
    await enterContacts(tx, {
      automationId: automation.id,
      trigger: kind,
      entries: [{ contactId: contact.id, entryKey: lead.entryKey(request), data: lead.data }],
    });
  });
  return send(200, { ok: true });
}

type Lead = {
  /** The contact's values as posted (strings; checked by checkLead). */
  contact: Record<string, string>;
  /** What the run keeps of the post (its trigger data). */
  data: Record<string, unknown>;
  entryKey: (request: FastifyRequest) => string;
};

const text = (v: unknown): string => {
  if (Array.isArray(v)) return text(v[0]);
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
};

/** A posted value by its name, or by a dotted path into JSON objects and arrays (`lead.contact.phone`). */
export function valueAt(body: Record<string, unknown>, path: string): string {
  if (path in body) return text(body[path]);
  let node: unknown = body;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return '';
    node = (node as Record<string, unknown>)[part];
  }
  return text(node);
}

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex').slice(0, 40);

/** A request's own id (a sender's retry carries the same), else the body's hash: one entry per post. */
function postKey(prefix: string, body: Record<string, unknown>) {
  return (request: FastifyRequest) => {
    const given = request.headers['idempotency-key'] ?? request.headers['x-request-id'];
    return `${prefix}-${sha(typeof given === 'string' && given ? `id:${given}` : JSON.stringify(body))}`;
  };
}

/** The webhook trigger: each contact field from the posted field its mapping names. */
function mappedLead(body: Record<string, unknown>, mapping: Record<string, string> | undefined): Lead {
  const contact: Record<string, string> = {};
  for (const [field, path] of Object.entries(mapping ?? { phone: 'phone' }))
    if (path) contact[field] = valueAt(body, path);
  return { contact, data: { fields: contact }, entryKey: postKey('wh', body) };
}

/**
 * HomeAdvisor's JSON lead feed: firstName, lastName (or name), primaryPhone (phonePrimary and phone are
 * taken too, secondaryPhone when there is no primary), email; the lead's ids (leadOid, srOid), task,
 * comments, interview and address (address, city, stateProvince or state, postalCode or zip) are kept in
 * the run's trigger data. HomeAdvisor retries a lead that was not answered 200: the lead's id makes the
 * retry enter nobody twice (`ha-<leadOid>`).
 */
function homeAdvisorLead(body: Record<string, unknown>): Lead {
  const pick = (...names: string[]) => names.map((n) => valueAt(body, n)).find((v) => v !== '') ?? '';
  const name = pick('name');
  const [first = '', ...rest] = name.split(/\s+/);
  const contact: Record<string, string> = {
    phone: pick('primaryPhone', 'phonePrimary', 'phone', 'secondaryPhone'),
    first_name: pick('firstName', 'first_name') || first,
    last_name: pick('lastName', 'last_name') || rest.join(' '),
    email: pick('email'),
  };
  const leadId = pick('leadOid', 'srOid');
  const data = {
    lead_oid: pick('leadOid'),
    sr_oid: pick('srOid'),
    task_name: pick('taskName'),
    comments: pick('comments'),
    interview: body.interview ?? null,
    address: pick('address'),
    city: pick('city'),
    state: pick('stateProvince', 'state'),
    postal_code: pick('postalCode', 'zip'),
  };
  return {
    contact,
    data,
    entryKey: leadId ? () => `ha-${leadId.slice(0, 100)}` : postKey('ha', body),
  };
}

/** The posted contact checked: every wrong field named (phone required), or the values to save. */
function checkLead(
  posted: Record<string, string>,
  lang: ReturnType<typeof languageFromHeader>,
): { contact: InboundContact } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const phone = toE164(posted.phone ?? '');
  if (!posted.phone) errors.phone = translate('automations_inbound.phone_required', lang);
  else if (!phone)
    errors.phone = translate('automations_inbound.phone_invalid', lang, { value: posted.phone.slice(0, 40) });
  const contact: InboundContact = { phone: phone ?? '' };
  const fields: Record<string, string> = {};
  for (const [field, raw] of Object.entries(posted)) {
    const value = raw.trim();
    if (field === 'phone' || value === '') continue;
    if (field === 'first_name' || field === 'last_name') contact[field] = value.slice(0, 100);
    else if (field === 'email') {
      if (isEmail(value) && value.length <= 191) contact.email = value.toLowerCase();
      else errors.email = translate('automations_inbound.email_invalid', lang);
    } else if (field === 'birthday' || field === 'anniversary') {
      if (isIsoDate(value)) contact[field] = value;
      else errors[field] = translate('automations_inbound.date_invalid', lang, { name: field });
    } else fields[field] = value.slice(0, 1000);
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { contact: { ...contact, fields } };
}
