// Webhook (ADR 071): an outbound POST of the contact as JSON, through the platform's URL guard (ADR 049):
// no loopback, private, link-local (cloud metadata), CGNAT or other special address, each redirect checked
// the same way, the socket opened to the very address checked, connect and total timeouts, a bounded
// answer. `Idempotency-Key: <step key>` is the same on every attempt, so a receiver that honours it acts
// once however often a crash or a retry repeats the request. The answer is recorded on the step:
// 2xx goes on; 5xx, 429, a timeout or a network failure is retried with backoff up to three attempts, then
// the journey goes on with the failure recorded; any other answer (4xx) and a refusal of the guard fail
// the step at once (no retry: the same request would be refused again) and the journey goes on.
import type { TActionConfig } from '@stn/contracts/automations';
import type { Config } from '../../../platform/config.ts';
import { createOutbound, type Outbound, OutboundError } from '../../../platform/outbound/guard.ts';
import { getContact } from '../../contacts/service.ts';
import type { ActionExecutor, StepResult } from './types.ts';

/** Attempts of one Webhook step in all (the first and two retries). */
export const WEBHOOK_ATTEMPTS = 3;
/** The wait before the second and the third attempt. */
export const WEBHOOK_BACKOFF_MS = [10_000, 60_000] as const;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_CONNECT_TIMEOUT_MS = 5_000;
/** What of the answer's body is read and kept on the step. */
const EXCERPT_BYTES = 1_000;
/** Reasons of the guard that a repeat would meet again: refused, not retried. */
const REFUSED = new Set(['url', 'scheme', 'host', 'address', 'redirect']);
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Headers the block may not set: the request's own framing and the idempotency key are ours. */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'idempotency-key',
]);

// One guard per configuration: the allowed origins (a test's local server) are a setting, never a switch.
const guards = new WeakMap<Config, Outbound>();
function guardFor(config: Config): Outbound {
  let g = guards.get(config);
  if (!g) {
    g = createOutbound({ allowOrigins: config.automationWebhookAllowOrigins });
    guards.set(config, g);
  }
  return g;
}

/** The URL as recorded on the step: without its query string and fragment (they may carry a key). */
function shownUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.origin}${u.pathname}`;
  } catch {
    return raw.slice(0, 200);
  }
}

export const webhookAction: ActionExecutor = async ({ ctx, automation, run, contact, config, step, now }) => {
  const c = config as TActionConfig<'Webhook'>;
  const base = { url: shownUrl(c.url), attempt: step.attempt };
  const fail = (error: string, retryable: boolean, detail: Record<string, unknown>): StepResult => {
    const retry = retryable && step.attempt < WEBHOOK_ATTEMPTS;
    return {
      kind: 'fail',
      error,
      retry,
      ...(retry ? { retryAfterMs: WEBHOOK_BACKOFF_MS[step.attempt - 1] ?? WEBHOOK_BACKOFF_MS[1] } : {}),
      continueRun: true,
      detail: { ...base, ...detail },
    };
  };
  const extra: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers)) {
    if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase()) || /[\r\n\0]/.test(value))
      return fail('automations.action.webhook_header_invalid', false, { header: name.slice(0, 100) });
    extra[name] = value;
  }
  const full = await getContact(ctx, { id: contact.id });
  const body = JSON.stringify({
    id: full.id,
    phone: full.phone,
    first_name: full.first_name,
    last_name: full.last_name,
    name: full.name,
    email: full.email,
    birthday: full.birthday,
    anniversary: full.anniversary,
    fields: full.fields,
    tags: full.tags,
    opted_out: full.opted_out,
    created_at: full.created_at,
    automation_id: automation.id,
    automation_name: automation.name,
    run_id: run.id,
    trigger: run.trigger,
    sent_at: now.toISOString(),
  });
  try {
    const res = await guardFor(ctx.deps.config).stream(c.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'StartTextingNow-Automations/1',
        'idempotency-key': step.key,
      },
      // The block's headers (an API key of the receiver) go to its URL's origin only, never a redirect's.
      credentials: extra,
      body,
      // The answer is read only up to the excerpt, then dropped: its size does not matter.
      maxBytes: 50 * 1024 * 1024,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      connectTimeoutMs: WEBHOOK_CONNECT_TIMEOUT_MS,
      maxRedirects: 3,
    });
    let excerpt = '';
    try {
      const chunks: Buffer[] = [];
      let seen = 0;
      for await (const chunk of res.body) {
        chunks.push(chunk as Buffer);
        seen += (chunk as Buffer).length;
        if (seen >= EXCERPT_BYTES) break;
      }
      excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
    } catch {
      // The status is what counts; a body cut short leaves the excerpt empty.
    } finally {
      res.body.destroy();
    }
    const detail = { status: res.status, body: excerpt };
    if (res.status >= 200 && res.status < 300) return { kind: 'next', detail: { ...base, ...detail } };
    const retryable = res.status >= 500 || res.status === 429 || res.status === 408;
    return fail('automations.action.webhook_status', retryable, detail);
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    const refused = REFUSED.has(err.reason);
    return fail(
      refused ? 'automations.action.webhook_refused' : 'automations.action.webhook_failed',
      !refused,
      {
        reason: err.reason,
        message: err.message.slice(0, 300),
      },
    );
  }
};
