// Fixtures of the effectful actions' tests (ADR 071), on the engine's own fixtures (../test-support.ts):
// business A with an install and its number, contacts and tags made through the API, and a block run the
// way a journey runs it: an automation of that block (or chain), the contact entered, the engine working
// the steps on the manual clock until the run is no longer active. Only the tests import this file.
import type { TActionKind, TBlock } from '@stn/contracts/automations';
import { expect } from 'vitest';
import { bearer } from '../../../../test/helpers.ts';
import {
  type AutomationsTest,
  addAutomation,
  automationsApp,
  block,
  chain,
  enter,
  runOf,
  type StepState,
  stepsOf,
} from '../test-support.ts';

export type ActionsApp = AutomationsTest & {
  installId: number;
  /** The install's number (texts and calls come from it). */
  number: string;
  adminToken: string;
};

export async function actionsApp(env: Record<string, string> = {}): Promise<ActionsApp> {
  const h = await automationsApp(env);
  const install = await h.install();
  const [n] = await h.q<{ phone_number: string }>('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  return Object.assign(h, {
    installId: install.id,
    number: n?.phone_number ?? '',
    adminToken: await h.token(h.seed.a.businessAdmin.email),
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

/** A tag of business A made through the API; its id. */
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

export type Journey = {
  runId: number;
  /** The first step's key (`Idempotency-Key` of a Webhook). */
  key: string;
  status: string;
  vars: Record<string, unknown>;
  steps: StepState[];
  /** The first step. */
  step: StepState;
};

let entries = 0;

/** The run's state once it is no longer `active` (waiting, completed, failed), or in `status` when given. */
export async function settle(h: ActionsApp, runId: number, status?: string): Promise<Journey> {
  await expect
    .poll(async () => (await runOf(h, runId)).status, { timeout: 15_000, interval: 20 })
    .toSatisfy((s: string) => (status ? s === status : s !== 'active'));
  const run = await runOf(h, runId);
  const steps = await stepsOf(h, runId);
  return {
    runId,
    key: `automation-step-${runId}-1`,
    status: run.status,
    vars: run.vars,
    steps,
    step: steps[0] as StepState,
  };
}

/** Starts a journey of these blocks (chained by `next`) for the contact; its run id. */
export async function startJourney(h: ActionsApp, blocks: TBlock[], contactId: number): Promise<number> {
  const automationId = await addAutomation(h, { blocks: chain(...blocks), options: { reentry: 'always' } });
  const [runId] = await enter(h, automationId, [{ contactId, entryKey: `actions-${++entries}` }]);
  expect(runId).toBeDefined();
  return runId as number;
}

/** One block of `type` with `config` run for the contact through the engine, until its run settles. */
export async function runBlock(
  h: ActionsApp,
  type: TActionKind,
  config: Record<string, unknown>,
  contactId: number,
): Promise<Journey> {
  return settle(h, await startJourney(h, [block('b1', type, config)], contactId));
}

export { block };
