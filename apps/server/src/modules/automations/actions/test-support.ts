// Fixtures of the effectful actions' tests (ADR 071): the telephony fixtures' app (sandbox carrier on a
// ManualClock), business A with an install and its number, contacts made through the API, and one step
// of a block run through its executor in a transaction of its own, as the engine runs it (a real run and
// step row, the step's business context as the automation system actor). Only the tests import this file.
import { ACTION_CONFIGS, type TActionKind } from '@stn/contracts/automations';
import { expect } from 'vitest';
import { bearer, drainJobs } from '../../../../test/helpers.ts';
import { type Ctx, inTransaction, tenantContext } from '../../../platform/tenancy/context.ts';
import { type Telephony, telephonyApp } from '../../telephony/testing.ts';
import { ACTIONS } from './index.ts';
import type { RunContact, StepInput, StepResult } from './types.ts';

export type ActionsApp = Telephony & {
  ctx: Ctx;
  q: <T = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;
  installId: number;
  /** The install's number (texts and calls come from it). */
  number: string;
  automationId: number;
  adminToken: string;
};

export async function actionsApp(env: Record<string, string> = {}): Promise<ActionsApp> {
  const h = await telephonyApp(env);
  await drainJobs(h.t);
  const a = h.seed.a;
  const ctx = tenantContext(
    h.t.app.deps,
    { level: 'business', agencyId: a.agency.id, businessId: a.business.id },
    { kind: 'system', source: 'automation', name: 'actions test' },
  );
  const q = async <T>(text: string, values: unknown[] = []) =>
    (await h.t.pool.query(text, values)).rows as T[];
  const install = await h.install();
  const [n] = await q<{ phone_number: string }>('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  const [auto] = await q<{ id: number }>(
    `insert into automations (agency_id, business_id, name, start_trigger, trigger, active, options, share_token)
     values ($1, $2, 'Test journey', 'direct-call', '{"kind":"direct-call","config":{},"start":null}', true,
             '{"reentry":"always"}', md5(random()::text)) returning id`,
    [a.agency.id, a.business.id],
  );
  return Object.assign(h, {
    ctx,
    q,
    installId: install.id,
    number: n?.phone_number ?? '',
    automationId: auto?.id ?? 0,
    adminToken: await h.token(a.businessAdmin.email),
  });
}

/** A contact of business A made through the API (on the install unless told); its id. */
export async function addContact(h: ActionsApp, body: Record<string, unknown>): Promise<number> {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/api/v1/contacts',
    headers: bearer(h.adminToken),
    payload: { install_id: h.installId, ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

/** A tag of business A; its id. */
export async function addTag(h: ActionsApp, name: string): Promise<number> {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/api/v1/tags',
    headers: bearer(h.adminToken),
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

async function runContact(h: ActionsApp, id: number): Promise<RunContact> {
  const [c] = await h.q<Record<string, unknown>>('select * from contacts where id = $1', [id]);
  if (!c) throw new Error(`no contact ${id}`);
  const tags = await h.q<{ tag_id: number }>('select tag_id from contact_tags where contact_id = $1', [id]);
  const first = String(c.first_name ?? '');
  const last = String(c.last_name ?? '');
  const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : (v as string | null));
  return {
    id,
    phone: String(c.phone),
    first_name: first,
    last_name: last,
    name: `${first} ${last}`.trim(),
    email: (c.email as string | null) ?? null,
    birthday: day(c.birthday),
    anniversary: day(c.anniversary),
    fields: (c.fields as Record<string, string>) ?? {},
    tag_ids: tags.map((t) => t.tag_id),
    install_id: (c.install_id as number | null) ?? null,
    opted_out: c.opted_out_at !== null,
    blocked: c.blocked_at !== null,
  };
}

export type Stepped = { result: StepResult; runId: number; key: string };

/**
 * Runs one block of `type` with `config` for the contact, as the engine does: a run and step row, the
 * executor called in a transaction with the step's context, committed (its after-commit work run).
 * `again`: the same step once more (the next attempt, or woken with its detail).
 */
export async function runBlock(
  h: ActionsApp,
  type: TActionKind,
  config: Record<string, unknown>,
  contactId: number,
  opts: {
    again?: { runId: number; attempt: number; detail?: Record<string, unknown> };
    now?: Date;
    vars?: Record<string, unknown>;
  } = {},
): Promise<Stepped> {
  const a = h.seed.a;
  let runId = opts.again?.runId;
  if (runId === undefined) {
    const [run] = await h.q<{ id: number }>(
      // Recorded as finished: the executor alone is run here, and a contact may have many such runs.
      `insert into automation_runs (agency_id, business_id, automation_id, contact_id, trigger, entry_key, current_block, status)
       values ($1, $2, $3, $4, 'direct-call', md5(random()::text), 'b1', 'completed') returning id`,
      [a.agency.id, a.business.id, h.automationId, contactId],
    );
    runId = Number(run?.id);
    await h.q(
      `insert into automation_steps (run_id, business_id, automation_id, seq, block_id, type, status, attempts)
       values ($1, $2, $3, 1, 'b1', $4, 'running', 1)`,
      [runId, a.business.id, h.automationId, type],
    );
  }
  const [step] = await h.q<{ id: number }>('select id from automation_steps where run_id = $1 and seq = 1', [
    runId,
  ]);
  const key = `automation-step-${runId}-1`;
  const contact = await runContact(h, contactId);
  const parsed = ACTION_CONFIGS[type].parse(config);
  const input = (ctx: Ctx): StepInput => ({
    ctx,
    automation: {
      id: h.automationId,
      name: 'Test journey',
      business_id: a.business.id,
      agency_id: a.agency.id,
    },
    run: {
      id: runId as number,
      trigger: 'direct-call',
      trigger_data: {},
      vars: opts.vars ?? {},
      started_at: new Date(h.clock.now() - 60_000),
    },
    contact,
    block: { id: 'b1', type, config, outputs: {}, position: { x: 0, y: 0 } },
    config: parsed,
    step: {
      id: Number(step?.id),
      seq: 1,
      key,
      attempt: opts.again?.attempt ?? 1,
      detail: opts.again?.detail ?? {},
      wake: 'due',
    },
    now: opts.now ?? new Date(h.clock.now()),
  });
  const result = await inTransaction(h.ctx, (tx) => ACTIONS[type](input(tx)));
  return { result, runId: runId as number, key };
}
