// The Sandbox Phones: the simulated phones of the carrier sandbox, as one business sees and drives them
// (ADR 030). Only while the business's agency uses the sandbox; a phone is the business's to see when it
// is one of its installs' staff phones, the visitor phone of one of its calls, or a phone whose call or
// texts involve one of its numbers. What another tenant's calls and texts did on a shared phone is never
// shown: a phone's view keeps only the call and the texts that involve this business's numbers.
import type { TSandboxPhone } from '@stn/contracts/telephony';
import { desc, inArray } from 'drizzle-orm';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import type { CallFilter, PhoneText, PhoneView } from '../../platform/carrier/sandbox/phones.ts';
import { SandboxPhoneError, type TwilioSandbox } from '../../platform/carrier/sandbox/sandbox.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, scope, tenantContext } from '../../platform/tenancy/context.ts';
import { carrierAccountFor } from '../agencies/service.ts';
import { installForCalls, installsOfBusiness } from '../installs/service.ts';
import { sandboxNumberSid } from './sandbox-restore.ts';
import { type CallbackData, requestCallback } from './service.ts';
import { calls, numbers } from './tables.ts';

/** A phone as the sandbox shows it (ZSandboxPhone without the product's label and installs). */
export type SandboxPhoneView = Omit<TSandboxPhone, 'label' | 'installs'>;

/**
 * The sandbox, when the context's business calls through a sandbox account (its own, else its agency's);
 * else 404 (no such screen).
 */
async function sandboxOf(
  ctx: Ctx,
): Promise<{ sandbox: TwilioSandbox; agencyId: number; businessId: number; accountSid: string }> {
  const { agencyId, businessId } = businessOf(ctx);
  const sandbox = ctx.deps.carrier.sandbox;
  if (!sandbox) throw notFound();
  const account = await carrierAccountFor(ctx.deps, { agencyId, businessId });
  if (!account?.sandbox) throw notFound();
  return { sandbox, agencyId, businessId, accountSid: account.accountSid };
}

type Known = {
  sandbox: TwilioSandbox;
  /** The business's own numbers (purchased, landline, caller ids). */
  own: Set<string>;
  /** Whether a text on a phone is this business's (see `textIsOurs`). */
  ours: (text: PhoneText) => boolean;
  /** Staff phones of its installs, with the agent's name. */
  staff: Map<string, string>;
  /** Staff phones of its installs, with the installs they answer for. */
  staffOf: Map<string, number[]>;
  /** Visitor phones of its calls among the phones the sandbox knows, with the visitor's label. */
  visitors: Map<string, string>;
  /** Every phone the sandbox knows, by number, as this business sees it (only its own calls). */
  phones: Map<string, PhoneView>;
  /** The calls this business may see and act on: its agency's sandbox account's, involving its numbers. */
  only: CallFilter;
};

async function known(ctx: Ctx): Promise<Known> {
  const { sandbox, accountSid } = await sandboxOf(ctx);
  // Every number the business has held (released ones too: what was texted then was its own).
  const heldRows = await ctx.db
    .select({
      agency_id: numbers.agency_id,
      phone_number: numbers.phone_number,
      carrier_sid: numbers.carrier_sid,
      kind: numbers.kind,
      released_at: numbers.released_at,
    })
    .from(numbers)
    .where(scope(ctx, numbers));
  const ownNumbers = new Set(heldRows.filter((r) => !r.released_at).map((r) => r.phone_number));
  const heldSids = new Set(heldRows.filter((r) => r.kind === 'purchased').map(sandboxNumberSid));
  // A text is the business's when it went through its agency's sandbox account and through a number
  // the business held at the time (the number's sid then: a released number bought again is another
  // sid), not merely a number it owns now (review of issue 17: a recycled number showed the earlier
  // holder's texts). A text through no account number (a landline or caller id of the business, which
  // the sandbox does not sell) falls back to the numbers owned now.
  const ours = (t: PhoneText) =>
    t.via ? t.via.accountSid === accountSid && heldSids.has(t.via.numberSid) : ownNumbers.has(t.other);
  // The phones belong to the agency's sandbox account (ADR 030, 051): another account's calls on the same
  // number, and this account's calls of another business, are not there for this business.
  const involves = (c: { from: string; to: string }) => ownNumbers.has(c.from) || ownNumbers.has(c.to);
  // A <Dial> leg of an inbound call (caller to staff phone) is the business's through its parent call.
  const only: CallFilter = (c) =>
    c.accountSid === accountSid && (involves(c) || (c.childOf !== null && involves(c.childOf.parent)));
  const phones = new Map(sandbox.phones.list(only).map((p) => [p.number, p]));
  const staff = new Map<string, string>();
  const staffOf = new Map<string, number[]>();
  const own = await installsOfBusiness(ctx);
  for (const { id } of own.sort((x, y) => x.id - y.id)) {
    for (const agent of (await installForCalls(ctx, id))?.settings.phoneAgents ?? []) {
      if (!staff.has(agent.phone)) staff.set(agent.phone, agent.name);
      const of = staffOf.get(agent.phone) ?? [];
      if (!of.includes(id)) staffOf.set(agent.phone, [...of, id]);
    }
  }
  const visitors = new Map<string, string>();
  const candidates = [...phones.keys()];
  if (candidates.length > 0) {
    const visitorRows = await ctx.db
      .select({ phone: calls.visitor_phone, name: calls.visitor_name })
      .from(calls)
      .where(scope(ctx, calls, inArray(calls.visitor_phone, candidates)))
      .orderBy(desc(calls.id));
    for (const row of visitorRows) {
      if (!visitors.has(row.phone)) visitors.set(row.phone, row.name ? `Visitor · ${row.name}` : 'Visitor');
    }
  }
  return { sandbox, own: ownNumbers, ours, staff, staffOf, visitors, phones, only };
}

/** The phone as this business may see it: its call (already one of `only`'s) and its own texts. */
function scrub(view: PhoneView, k: Pick<Known, 'ours'>): SandboxPhoneView {
  return {
    number: view.number,
    state: view.call ? view.state : 'idle',
    call: view.call,
    last_call: view.last_call,
    texts: view.texts.filter(k.ours).map(({ via: _via, ...text }) => text),
  };
}

const idle = (number: string): SandboxPhoneView => ({ number, state: 'idle', call: null, texts: [] });

/** The business's view of one phone, or null when the phone is not the business's to see. */
function visible(k: Known, number: string): TSandboxPhone | null {
  const raw = k.phones.get(number);
  const view = raw ? scrub(raw, k) : idle(number);
  const label = k.staff.get(number) ?? k.visitors.get(number);
  const installs = k.staffOf.get(number) ?? [];
  if (label !== undefined) return { ...view, label, installs };
  if (view.call || view.last_call || view.texts.length > 0) return { ...view, label: number, installs };
  return null;
}

/** GET /v1/sandbox/phones: the business's staff phones (idle ones included), its visitors and callers. */
export async function listSandboxPhones(ctx: Ctx): Promise<TSandboxPhone[]> {
  const k = await known(ctx);
  const order = [...k.staff.keys(), ...k.visitors.keys(), ...k.phones.keys()];
  const out: TSandboxPhone[] = [];
  const seen = new Set<string>();
  for (const number of order) {
    if (seen.has(number)) continue;
    seen.add(number);
    const phone = visible(k, number);
    if (phone) out.push(phone);
  }
  return out;
}

/** One visible phone, or 404 (another tenant's phones do not exist for this business). */
async function phoneOf(ctx: Ctx, number: string): Promise<{ k: Known; phone: TSandboxPhone }> {
  const k = await known(ctx);
  const phone = visible(k, number);
  if (!phone) throw notFound();
  return { k, phone };
}

/** The phone after an action (the sandbox has applied it synchronously or scheduled what follows). */
async function after(ctx: Ctx, number: string): Promise<TSandboxPhone> {
  const k = await known(ctx);
  return visible(k, number) ?? { ...idle(number), label: number, installs: [] };
}

/**
 * Runs a phone action; the sandbox's refusal (the call moved on between the check and the action, the
 * number is not in service) becomes a plain message.
 */
async function onPhone(work: () => unknown): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof SandboxPhoneError)) throw err;
    switch (err.reason) {
      case 'no-ringing-call':
        throw new AppError('CONFLICT', 'sandbox.not_ringing');
      case 'no-call':
        throw new AppError('CONFLICT', 'sandbox.no_call');
      case 'not-in-service':
        throw invalid('to', 'sandbox.not_in_service');
      case 'not-a-number':
        throw invalid('number', 'validation.phone');
    }
  }
}

export type SandboxPhoneAction = 'answer' | 'voicemail' | 'hangup' | 'reject';

/** Answer (as a person or as voicemail), hang up or reject a call on one of the business's phones. */
export async function actOnSandboxPhone(
  ctx: Ctx,
  input: { number: string; action: SandboxPhoneAction },
): Promise<TSandboxPhone> {
  const { k, phone } = await phoneOf(ctx, input.number);
  const { phones } = k.sandbox;
  switch (input.action) {
    case 'answer':
    case 'voicemail':
      if (phone.state !== 'ringing') throw new AppError('CONFLICT', 'sandbox.not_ringing');
      await onPhone(() =>
        phones.answer(input.number, { as: input.action === 'answer' ? 'human' : 'machine', only: k.only }),
      );
      break;
    case 'reject':
      if (phone.state !== 'ringing') throw new AppError('CONFLICT', 'sandbox.not_ringing');
      await onPhone(() => phones.reject(input.number, k.only));
      break;
    case 'hangup':
      if (!phone.call) throw new AppError('CONFLICT', 'sandbox.no_call');
      await onPhone(() => phones.hangUp(input.number, k.only));
      break;
  }
  return after(ctx, input.number);
}

/** Digits into the Gather the phone is hearing ("press 1"). */
export async function pressOnSandboxPhone(
  ctx: Ctx,
  input: { number: string; digits: string },
): Promise<TSandboxPhone> {
  const { k, phone } = await phoneOf(ctx, input.number);
  if (!phone.call?.gathering) throw new AppError('CONFLICT', 'sandbox.not_gathering');
  await onPhone(() => k.sandbox.phones.press(input.number, input.digits, k.only));
  return after(ctx, input.number);
}

/**
 * A phone texts or calls one of the business's numbers. The phone may be new to the sandbox (it becomes
 * the business's to see by doing so), or already visible; another tenant's phone is not found.
 */
export async function fromSandboxPhone(
  ctx: Ctx,
  input: { number: string; kind: 'text' | 'dial'; to: string; body?: string },
): Promise<TSandboxPhone> {
  const k = await known(ctx);
  if (k.phones.has(input.number) && !visible(k, input.number)) throw notFound();
  // A number of a sandbox account (this business's or another tenant's) is not a phone anyone plays.
  if (k.own.has(input.number) || k.sandbox.findIncomingNumber(input.number)) throw notFound();
  if (!k.own.has(input.to)) throw invalid('to', 'sandbox.not_your_number');
  if (input.number === input.to) throw invalid('to', 'sandbox.same_number');
  // A number the sandbox does not answer for (not bought through it) would swallow the text unseen.
  if (!k.sandbox.findIncomingNumber(input.to)) throw invalid('to', 'sandbox.not_in_service');
  const { phones } = k.sandbox;
  if (input.kind === 'text') await onPhone(() => phones.sendText(input.number, input.to, input.body ?? ''));
  else await onPhone(() => phones.dial(input.number, input.to));
  return after(ctx, input.number);
}

/** The phones the agency's sandbox account's texts fail to, with the carrier error code of each. */
export async function sandboxFailingNumbers(ctx: Ctx): Promise<{ phone: string; code: number }[]> {
  const { sandbox, accountSid } = await sandboxOf(ctx);
  return sandbox.failingNumbers({ accountSid }).sort((a, b) => a.phone.localeCompare(b.phone));
}

/**
 * Texts from the agency's sandbox account to `number` fail with the carrier error `code` (null: they work
 * again). Only that account's: another tenant's texts to the same phone are not touched.
 */
export async function failSandboxNumber(
  ctx: Ctx,
  input: { number: string; code: number | null },
): Promise<{ phone: string; code: number }[]> {
  const { sandbox, accountSid } = await sandboxOf(ctx);
  sandbox.failNumber(input.number, input.code, { accountSid });
  return sandboxFailingNumbers(ctx);
}

/** The sandbox carrier's time, and whether it is a manual clock (ADR 073). */
export async function sandboxClock(ctx: Ctx): Promise<{ manual: boolean; now: string }> {
  const { sandbox } = await sandboxOf(ctx);
  return { manual: sandbox.clock instanceof ManualClock, now: new Date(sandbox.clock.now()).toISOString() };
}

/**
 * Moves a manual sandbox clock on by `seconds`: every call, ring timeout and automation wait due meanwhile
 * happens, in time order. 409 on a real clock (time is not ours to move).
 */
export async function advanceSandboxClock(
  ctx: Ctx,
  input: { seconds: number },
): Promise<{ manual: boolean; now: string }> {
  const { sandbox } = await sandboxOf(ctx);
  if (!(sandbox.clock instanceof ManualClock)) throw new AppError('CONFLICT', 'sandbox.clock_real');
  await sandbox.clock.advance(input.seconds * 1000);
  return sandboxClock(ctx);
}

/** The install a Sandbox Phones callback is asked for: the business's own (404 otherwise), and active. */
async function sandboxInstall(ctx: Ctx, installId: number): Promise<number> {
  await sandboxOf(ctx);
  const install = await installForCalls(ctx, installId);
  if (!install || install.status === 'deleted') throw notFound();
  return install.id;
}

/**
 * POST /v1/sandbox/callback: the visitor's phone asks for a callback from one of the business's installs,
 * as the widget does: the same service in a visitor context of that install, the same checks and answer.
 */
export async function sandboxCallback(
  ctx: Ctx,
  input: { install_id: number; phone: string; name?: string | undefined; ip?: string | undefined },
): Promise<CallbackData> {
  const installId = await sandboxInstall(ctx, input.install_id);
  const { agencyId, businessId } = businessOf(ctx);
  const visitor = tenantContext(
    ctx.deps,
    { level: 'business', agencyId, businessId },
    { kind: 'visitor', installId, ...(input.ip ? { ip: input.ip } : {}) },
  );
  return requestCallback(visitor, { installId, phone: input.phone, name: input.name, ip: input.ip });
}
