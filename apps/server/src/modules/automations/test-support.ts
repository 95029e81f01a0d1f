// Fixtures of the automations tests (ADR 068), for every helper's tests: the telephony fixtures' app (the
// sandbox carrier on a ManualClock, the engine on that clock), business A's context, contacts made in one
// statement, an automation row as the API saves it, entering contacts, moving the clock, and waiting for a
// run's state (polling, never sleeping). Only the tests import this file.

import crypto from 'node:crypto';
import type {
  TActionKind,
  TAutomationOptions,
  TBlock,
  TTrigger,
  TTriggerKind,
} from '@stn/contracts/automations';
import { expect } from 'vitest';
import { drainJobs } from '../../../test/helpers.ts';
import { type Ctx, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { addContactsA, addTagA, businessA, type Telephony, telephonyApp } from '../telephony/testing.ts';
import { type Entry, enterContacts } from './engine.ts';
import { forgetActiveTriggers } from './matching.ts';

const PUBLIC = 'http://localhost:3000';

export type AutomationsTest = Telephony & {
  /** Business A's context (a system actor). */
  ctx: Ctx;
  q: <T = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;
};

/** The app on a fresh database, the sandbox's (and the engine's) clock manual. */
export async function automationsApp(env: Record<string, string> = {}): Promise<AutomationsTest> {
  const h = await telephonyApp(env);
  if (env.WORKERS !== 'off') await drainJobs(h.t);
  return Object.assign(h, businessA(h, 'automations test'));
}

/**
 * An install of business A with its own number, which the sandbox also knows as incoming (its texts and
 * calls reach our webhooks): texts to and from contacts on it go through the sandbox phones.
 */
export async function installWithNumber(
  h: AutomationsTest,
): Promise<{ id: number; key: string; phone: string }> {
  const i = await h.install();
  const [n] = await h.q<{ phone_number: string }>('select phone_number from numbers where install_id = $1', [
    i.id,
  ]);
  const phone = n?.phone_number ?? '';
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no carrier account');
  h.sandbox.restoreIncomingNumber(account.accountSid, {
    sid: `PN${crypto.randomBytes(16).toString('hex')}`,
    phoneNumber: phone,
    voiceUrl: `${PUBLIC}/webhooks/twilio/voice`,
    smsUrl: `${PUBLIC}/webhooks/twilio/sms-in`,
  });
  return { ...i, phone };
}

/** A block of an automation graph; `outputs` name the next block by output (`next`, `yes`, `no`...). */
export function block(
  id: string,
  type: TActionKind,
  config: Record<string, unknown> = {},
  outputs: Record<string, string | null> = {},
): TBlock {
  return { id, type, config, outputs, position: { x: 0, y: 0 } };
}

/** A chain of blocks, each one's `next` leading to the following (the last one ends the journey). */
export function chain(...blocks: TBlock[]): TBlock[] {
  return blocks.map((b, i) => ({
    ...b,
    outputs: { ...(blocks[i + 1] ? { next: blocks[i + 1]?.id ?? null } : {}), ...b.outputs },
  }));
}

/** An automation row of business A (or `businessOf`), as the API saves it; active unless told. */
export async function addAutomation(
  h: AutomationsTest,
  a: {
    blocks: TBlock[];
    name?: string;
    trigger?: TTriggerKind;
    triggerConfig?: Record<string, unknown>;
    options?: Partial<TAutomationOptions>;
    active?: boolean;
    installs?: number[];
    tags?: number[];
    tenant?: 'a' | 'b';
  },
): Promise<number> {
  const t = h.seed[a.tenant ?? 'a'];
  const kind = a.trigger ?? 'direct-call';
  const trigger: TTrigger = {
    kind,
    config: a.triggerConfig ?? {},
    start: a.blocks[0]?.id ?? null,
    position: { x: 0, y: 0 },
  };
  const [row] = await h.q<{ id: number }>(
    `insert into automations (agency_id, business_id, name, start_trigger, trigger, active, blocks, options,
                              installs, tags, share_token)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, md5(random()::text)) returning id`,
    [
      t.agency.id,
      t.business.id,
      a.name ?? 'Journey',
      kind,
      JSON.stringify(trigger),
      a.active ?? true,
      JSON.stringify(a.blocks),
      JSON.stringify({ reentry: 'after_finish', ...a.options }),
      JSON.stringify(a.installs ?? []),
      JSON.stringify(a.tags ?? []),
    ],
  );
  // Written as SQL, not saved through the app: the app's note of which triggers are in use is forgotten as a
  // save would.
  if (a.active ?? true)
    forgetActiveTriggers(
      tenantContext(
        h.t.app.deps,
        { level: 'business', agencyId: t.agency.id, businessId: t.business.id },
        { kind: 'system', source: 'seed', name: 'automations test' },
      ),
    );
  return (row as { id: number }).id;
}

/** `count` contacts of business A (phones +1415700xxxx from `first` unless `prefix`), on the install if given. */
export function addContacts(
  h: AutomationsTest,
  opts: { count: number; first?: number; installId?: number | null; prefix?: string; tagId?: number },
): Promise<number[]> {
  return addContactsA(h, { ...opts, prefix: opts.prefix ?? '+1415700' });
}

export const addTag = (h: AutomationsTest, name: string) => addTagA(h, name);

/** Enters contacts into an automation of business A as a trigger does (entry keys `k-<contact>` unless given). */
export function enter(
  h: AutomationsTest,
  automationId: number,
  contactIds: number[] | Entry[],
  trigger: TTriggerKind = 'direct-call',
): Promise<number[]> {
  const entries = contactIds.map((c) => (typeof c === 'number' ? { contactId: c, entryKey: `k-${c}` } : c));
  return inTransaction(h.ctx, (tx) => enterContacts(tx, { automationId, trigger, entries }));
}

export type RunState = {
  id: number;
  status: string;
  current_block: string | null;
  vars: Record<string, unknown>;
  contact_id: number;
};

export async function runOf(h: AutomationsTest, runId: number): Promise<RunState> {
  const [row] = await h.q<RunState>(
    'select id::int, status, current_block, vars, contact_id from automation_runs where id = $1',
    [runId],
  );
  if (!row) throw new Error(`no run ${runId}`);
  return row;
}

export type StepState = {
  seq: number;
  block_id: string;
  type: string;
  status: string;
  output: string | null;
  detail: Record<string, unknown>;
  error: string | null;
  attempts: number;
  due_at: Date;
};

export function stepsOf(h: AutomationsTest, runId: number): Promise<StepState[]> {
  return h.q<StepState>(
    `select seq, block_id, type, status, output, detail, error, attempts, due_at
       from automation_steps where run_id = $1 order by seq`,
    [runId],
  );
}

/** Waits (polling) until the run's status is `status` (and its block `block` when given). */
export async function untilRun(
  h: AutomationsTest,
  runId: number,
  status: string,
  block?: string | null,
  timeoutMs = 15_000,
): Promise<RunState> {
  let last: RunState | undefined;
  await expect
    .poll(
      async () => {
        last = await runOf(h, runId);
        return last.status === status && (block === undefined || last.current_block === block);
      },
      { timeout: timeoutMs, interval: 20 },
    )
    .toBe(true);
  return last as RunState;
}

/** Waits until the run's step `seq` has status `status`. */
export async function untilStep(
  h: AutomationsTest,
  runId: number,
  seq: number,
  status: string,
  timeoutMs = 15_000,
) {
  await expect
    .poll(async () => (await stepsOf(h, runId)).find((s) => s.seq === seq)?.status, {
      timeout: timeoutMs,
      interval: 20,
    })
    .toBe(status);
}

/** Moves the engine's (the sandbox's) clock forward: waits due by then wake up. */
export async function moveClock(h: AutomationsTest, ms: number): Promise<void> {
  await h.clock.advance(ms);
}

export { expect };
