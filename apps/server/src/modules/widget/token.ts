// The visitor token (ADR 041): what a page that asked for a callback or started a conversation presents to
// follow them, and nothing more. `v1.<payload>.<mac>`: the payload names the install, the contact (when
// there is a conversation), the call (after a callback) and the expiry; the mac is HMAC-SHA256 with a key
// derived from the platform's secrets key for this purpose alone. No state on the server: a restart or
// another process reads it the same. Each function takes the visitor's context: the install is its
// visitor's (platform/widget/tree.ts's visitorContext).
import crypto from 'node:crypto';
import type { Deps } from '../../platform/deps.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { visitorInstall } from '../../platform/widget/tree.ts';

/** How long a token lets a page follow its call and conversation. */
export const TOKEN_TTL_MS = 24 * 3_600_000;

export type VisitorToken = {
  installId: number;
  contactId: number | null;
  callId: number | null;
  /** Expiry, milliseconds since the epoch. */
  expiresAt: number;
  /**
   * The conversation is shown from this moment on (ms since the epoch): the visitor's first text. Whoever
   * typed a phone number into the widget reads what followed their own text, never the business's
   * earlier messages with that number.
   */
  since: number;
  /**
   * The conversation this widget started ('text us'): the visitor's own texts carry it, and until the
   * phone is proven (`verified`) the token shows only those (issue 17, ADR 048).
   */
  thread: string | null;
  /** The visitor entered the code texted to the phone: the business's replies and the phone's texts show. */
  verified: boolean;
};

type Payload = { i: number; c: number | null; k: number | null; e: number; s?: number; t?: string; v?: 1 };

const keyOf = (deps: Deps) => deps.secrets.derive('widget-visitor-token');
const mac = (deps: Deps, payload: string) =>
  crypto.createHmac('sha256', keyOf(deps)).update(`v1.${payload}`).digest('base64url');

/** A token for the context's visitor (of its install). */
export function signToken(
  ctx: Ctx,
  input: {
    contactId?: number | null;
    callId?: number | null;
    since?: Date;
    thread?: string | null;
    verified?: boolean;
  },
  now = Date.now(),
): string {
  const p: Payload = {
    i: visitorInstall(ctx),
    c: input.contactId ?? null,
    k: input.callId ?? null,
    e: Math.floor((now + TOKEN_TTL_MS) / 1000),
    s: input.since?.getTime() ?? now,
  };
  if (input.thread) p.t = input.thread;
  if (input.verified) p.v = 1;
  const payload = Buffer.from(JSON.stringify(p)).toString('base64url');
  return `v1.${payload}.${mac(ctx.deps, payload)}`;
}

const refused = (key: string) => new AppError('UNAUTHENTICATED', key, undefined, {}, key);

/**
 * The token's claims, for the context's install only: a token that is not ours (tampered, malformed),
 * expired or another install's is a 401 that says which.
 */
export function verifyToken(ctx: Ctx, token: unknown, now = Date.now()): VisitorToken {
  const { deps } = ctx;
  const installId = visitorInstall(ctx);
  if (typeof token !== 'string' || token.length > 1000) throw refused('widget.token_invalid');
  // Exactly three parts: a token with anything appended is not the one we signed (and would otherwise
  // count as another token against the per-token bounds).
  const parts = token.split('.');
  const [version, payload, sig] = parts;
  if (parts.length !== 3 || version !== 'v1' || !payload || !sig) throw refused('widget.token_invalid');
  const expected = Buffer.from(mac(deps, payload));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    throw refused('widget.token_invalid');
  let p: Payload;
  try {
    p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw refused('widget.token_invalid');
  }
  if (typeof p.e !== 'number' || p.e * 1000 <= now) throw refused('widget.token_expired');
  if (p.i !== installId) throw refused('widget.token_other_install');
  const expiresAt = p.e * 1000;
  return {
    installId: p.i,
    contactId: p.c ?? null,
    callId: p.k ?? null,
    expiresAt,
    since: typeof p.s === 'number' ? p.s : expiresAt - TOKEN_TTL_MS,
    thread: typeof p.t === 'string' && THREAD.test(p.t) ? p.t : null,
    verified: p.v === 1,
  };
}

const THREAD = /^[0-9a-f]{16}$/;

/** A new conversation's thread: 16 hex digits (it goes into a LIKE pattern as it is). */
export const newThread = (): string => crypto.randomBytes(8).toString('hex');

/** Digits of the code texted to the visitor's phone. */
export const CODE_DIGITS = 6;

/**
 * The code that proves the phone of a widget conversation: derived from the install, the contact and the
 * thread under a key of its own, so nothing is stored and any process checks it; a new conversation (a new
 * thread) has a new code.
 */
export function visitorCode(ctx: Ctx, input: { contactId: number; thread: string }): string {
  const mac = crypto
    .createHmac('sha256', ctx.deps.secrets.derive('widget-visitor-code'))
    .update(`${visitorInstall(ctx)}:${input.contactId}:${input.thread}`)
    .digest();
  return String(mac.readUInt32BE(0) % 10 ** CODE_DIGITS).padStart(CODE_DIGITS, '0');
}

/** Whether a code typed by the visitor is the conversation's (digits only; spaces and dashes ignored). */
export function codeMatches(ctx: Ctx, input: { contactId: number; thread: string; typed: string }): boolean {
  const given = Buffer.from(input.typed.replace(/[\s-]/g, ''));
  const expected = Buffer.from(visitorCode(ctx, input));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
