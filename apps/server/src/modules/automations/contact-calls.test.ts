// The contacts' three automation calls (spec 001 "Contacts", ADR 069) start and stop real journeys:
// POST /v1/contacts/{id}/automation/{automationId} and POST /v1/contacts/bulk-automation/{id} enter the
// contacts (a direct-call run each, once while it is live, again after it finished when the automation's
// re-entry rule lets them), DELETE stops the run. Another business's, a deleted or an unknown automation
// is a 404; a switched-off one a 422 naming automation_id; neither changes anything.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bearer, snapshot } from '../../../test/helpers.ts';
import { contactAutomationAdded } from '../contacts/service.ts';
import {
  type AutomationsTest,
  addAutomation,
  addContacts,
  automationsApp,
  block,
  expect,
  moveClock,
  untilRun,
} from './test-support.ts';

/** The machine is shared: a state is waited for this long before the test fails. */
const SLOW = { timeout: 15_000 };

let h: AutomationsTest;
let token: string;
const added: { contactId: number; automationId: number }[] = [];
beforeAll(async () => {
  h = await automationsApp();
  token = await h.token(h.seed.a.businessAdmin.email);
  h.t.app.deps.events.on(contactAutomationAdded, (p) => {
    added.push({ contactId: p.contactId, automationId: p.automationId });
  });
});
afterAll(() => h?.close());

const TABLES = ['contacts', 'contact_automations', 'automation_runs', 'automation_steps'];
const post = (url: string, payload?: object) =>
  h.t.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });
const del = (url: string) => h.t.app.inject({ method: 'DELETE', url, headers: bearer(token) });

type Run = { id: number; status: string; trigger: string; entry_key: string; contact_id: number };
const runs = (automationId: number, contactId?: number) =>
  h.q<Run>(
    `select id::int, status, trigger, entry_key, contact_id from automation_runs
      where automation_id = $1 and ($2::int is null or contact_id = $2) order by id`,
    [automationId, contactId ?? null],
  );
const recorded = async (automationId: number) =>
  (
    await h.q<{ contact_id: number }>(
      'select contact_id from contact_automations where automation_id = $1 order by contact_id',
      [automationId],
    )
  ).map((r) => r.contact_id);

/** A journey that waits a day: it stays live until stopped. */
const waitADay = () => [block('w', 'Wait', { amount: 1, unit: 'days' })];

describe('the contact automation calls', () => {
  it('POST one contact: a direct-call run starts, once while it is live; DELETE stops it', async () => {
    const id = await addAutomation(h, { blocks: waitADay(), trigger: 'sms-keyword' });
    const [x] = (await addContacts(h, { count: 1, first: 1 })) as [number];

    const res = await post(`/api/v1/contacts/${x}/automation/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Contact added to the automation.',
      data: { id: x, automations: [id] },
    });
    const [run] = await runs(id, x);
    // Live: active, or already waiting when the runner took its first step (the Wait) before this read.
    expect(run).toMatchObject({ trigger: 'direct-call' });
    expect(['active', 'waiting']).toContain(run?.status);
    expect(run?.entry_key).toMatch(/^direct-/);
    await untilRun(h, run?.id as number, 'waiting', 'w');
    expect(added).toContainEqual({ contactId: x, automationId: id });

    // A second call while the journey is live starts nothing more (and announces nothing more).
    const again = await post(`/api/v1/contacts/${x}/automation/${id}`);
    expect(again.statusCode, again.body).toBe(200);
    expect(await runs(id, x)).toHaveLength(1);
    expect(added.filter((a) => a.contactId === x && a.automationId === id)).toHaveLength(1);

    const stop = await del(`/api/v1/contacts/${x}/automation/${id}`);
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json()).toMatchObject({
      message: 'Contact removed from the automation.',
      data: { id: x, automations: [] },
    });
    expect((await runs(id, x)).map((r) => r.status)).toEqual(['stopped']);
    const steps = await h.q<{ status: string }>('select status from automation_steps where run_id = $1', [
      run?.id,
    ]);
    expect(steps.map((s) => s.status)).toEqual(['skipped']);
    expect(await recorded(id)).toEqual([]);
    // Stopping again finds no journey in progress: nothing to do, still 200.
    expect((await del(`/api/v1/contacts/${x}/automation/${id}`)).statusCode).toBe(200);
  });

  it('bulk-automation enters each contact named, once each', async () => {
    const id = await addAutomation(h, { blocks: waitADay() });
    const [x, y] = (await addContacts(h, { count: 2, first: 10 })) as [number, number];
    const res = await post(`/api/v1/contacts/bulk-automation/${id}`, { ids: [x, y, x] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: '2 contacts added to the automation.', data: { count: 2 } });
    const started = await runs(id);
    expect(started.map((r) => r.contact_id).sort()).toEqual([x, y].sort());
    expect(new Set(started.map((r) => r.trigger))).toEqual(new Set(['direct-call']));
    expect(await recorded(id)).toEqual([x, y].sort((a, b) => a - b));
    // Again: both journeys are live, nobody enters twice.
    expect((await post(`/api/v1/contacts/bulk-automation/${id}`, { ids: [x, y] })).statusCode).toBe(200);
    expect(await runs(id)).toHaveLength(2);
  });

  it('a contact who finished enters again when the automation lets them (after_finish), not when never', async () => {
    const quick = [block('w', 'Wait', { amount: 1, unit: 'seconds' })];
    const again = await addAutomation(h, { blocks: quick, options: { reentry: 'after_finish' } });
    const once = await addAutomation(h, { blocks: quick, options: { reentry: 'never' } });
    const [x] = (await addContacts(h, { count: 1, first: 20 })) as [number];
    for (const id of [again, once]) {
      expect((await post(`/api/v1/contacts/${x}/automation/${id}`)).statusCode).toBe(200);
      const [run] = await runs(id, x);
      await untilRun(h, run?.id as number, 'waiting');
    }
    await moveClock(h, 2000);
    for (const id of [again, once]) await untilRun(h, (await runs(id, x))[0]?.id as number, 'completed');

    for (const id of [again, once])
      expect((await post(`/api/v1/contacts/${x}/automation/${id}`)).statusCode).toBe(200);
    const live = (status: string) => (status === 'active' || status === 'waiting' ? 'live' : status);
    expect((await runs(again, x)).map((r) => live(r.status))).toEqual(['completed', 'live']);
    expect((await runs(once, x)).map((r) => r.status)).toEqual(['completed']);
  });

  it('404 for another business’s, a deleted or an unknown automation; 422 for a switched-off one; nothing changes', async () => {
    const theirs = await addAutomation(h, { blocks: waitADay(), tenant: 'b' });
    const gone = await addAutomation(h, { blocks: waitADay() });
    await h.q('update automations set deleted_at = now() where id = $1', [gone]);
    const off = await addAutomation(h, { blocks: waitADay(), active: false });
    const [x, y] = (await addContacts(h, { count: 2, first: 30 })) as [number, number];
    // Every journey started so far has settled, so that only these calls could change the tables.
    await expect
      .poll(
        async () =>
          (await h.q("select 1 from automation_steps where status in ('pending', 'running')")).length,
        SLOW,
      )
      .toBe(0);
    const before = await snapshot(h.t.pool, TABLES);
    const eventsBefore = added.length;

    for (const id of [theirs, gone, 999_999]) {
      for (const res of [
        await post(`/api/v1/contacts/${x}/automation/${id}`),
        await post(`/api/v1/contacts/bulk-automation/${id}`, { ids: [x, y] }),
        await del(`/api/v1/contacts/${x}/automation/${id}`),
      ]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json()).toMatchObject({
          success: false,
          code: 'NOT_FOUND',
          message: 'This automation does not exist.',
        });
      }
    }
    for (const res of [
      await post(`/api/v1/contacts/${x}/automation/${off}`),
      await post(`/api/v1/contacts/bulk-automation/${off}`, { ids: [x, y] }),
    ]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        success: false,
        errors: {
          automation_id: ['This automation is switched off. Turn it on before adding contacts to it.'],
        },
      });
    }
    // Spanish callers read it in Spanish.
    const es = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/contacts/${x}/automation/${off}`,
      headers: { ...bearer(token), 'accept-language': 'es' },
    });
    expect(JSON.stringify(es.json())).toContain('Esta automatización está desactivada');
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    expect(added.length).toBe(eventsBefore);
    // Stopping a journey in a switched-off automation is allowed (there is none here: 200, nothing changes).
    expect((await del(`/api/v1/contacts/${x}/automation/${off}`)).statusCode).toBe(200);
  });

  it('another business’s contact is a 404 before any automation is looked at', async () => {
    const id = await addAutomation(h, { blocks: waitADay() });
    const tokenB = await h.token(h.seed.b.businessAdmin.email);
    const [x] = (await addContacts(h, { count: 1, first: 40 })) as [number];
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/contacts/${x}/automation/${id}`,
      headers: bearer(tokenB),
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(await runs(id)).toEqual([]);
  });
});
