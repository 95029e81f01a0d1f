import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  bearer,
  drainJobs,
  expect422,
  expectCrossTenant404,
  login,
  snapshot,
} from '../../../test/helpers.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

// The automations API (ADR 070): every /v1/automations call of spec 001 "Automations": drafts saved
// incomplete, activation refused with every problem of the check, ids of another business refused (422),
// the plan's limit on create and on activation, toggle, delete, duplicate, the inbound URL calls, another
// business's automation (404), and a user without the automation page (403).

let h: Telephony;
const PUBLIC = 'http://localhost:3000';
const base = '/api/v1/automations';
const TABLES = ['automations', 'automation_runs', 'tags'];
const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

let admin: string;
let adminB: string;
let vip: number;
let tagB: number;

const api = (token: string) => ({
  get: (url: string) => h.t.app.inject({ method: 'GET', url, headers: bearer(token) }),
  post: (url: string, payload: object = {}) =>
    h.t.app.inject({ method: 'POST', url, headers: bearer(token), payload }),
  put: (url: string, payload: object = {}) =>
    h.t.app.inject({ method: 'PUT', url, headers: bearer(token), payload }),
  del: (url: string) => h.t.app.inject({ method: 'DELETE', url, headers: bearer(token) }),
});

async function tag(business: 'a' | 'b', name: string) {
  const [row] = await q('insert into tags (business_id, name) values ($1, $2) returning id', [
    h.seed[business].business.id,
    name,
  ]);
  return row.id as number;
}

async function setLimit(business: 'a' | 'b', n: number) {
  await q('update businesses set number_of_automations = $1 where id = $2', [
    n,
    h.seed[business].business.id,
  ]);
}

/** A complete journey: a missed call → wait a minute → text → tag. */
const journey = (over: Record<string, unknown> = {}) => ({
  name: 'Missed call follow-up',
  trigger: { kind: 'missed-call', config: {}, start: 'wait' },
  blocks: [
    { id: 'wait', type: 'Wait', config: { amount: 1, unit: 'minutes' }, outputs: { next: 'text' } },
    {
      id: 'text',
      type: 'SendMessage',
      config: { body: 'Hi {first_name|there}, sorry we missed you!' },
      outputs: { next: 'tag' },
    },
    { id: 'tag', type: 'AddTag', config: { add: [vip] }, outputs: { next: null } },
  ],
  ...over,
});

async function create(token: string, over: Record<string, unknown> = {}) {
  const res = await api(token).post(base, journey(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; name: string; active: boolean; share_token: string };
}

beforeAll(async () => {
  h = await telephonyApp();
  await drainJobs(h.t);
  admin = await h.token(h.seed.a.businessAdmin.email);
  adminB = await h.token(h.seed.b.businessAdmin.email);
  vip = await tag('a', 'VIP');
  tagB = await tag('b', 'Other VIP');
  await setLimit('a', 100);
});
afterAll(() => h?.close());

describe('automations: create, read, list, edit', () => {
  it('saves an incomplete draft as it was sent, and reads and lists it', async () => {
    const res = await api(admin).post(base, {
      name: 'Half done',
      trigger: { kind: 'sms-keyword', config: {}, start: 'text' },
      blocks: [
        { id: 'text', type: 'SendMessage', config: { body: '' }, outputs: { next: 'gone' } },
        { id: 'lost', type: 'Wait', config: {}, outputs: {} },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Automation saved.');
    const a = res.json().data;
    expect(a).toMatchObject({
      name: 'Half done',
      start_trigger: 'sms-keyword',
      active: false,
      options: { reentry: 'after_finish' },
      installs: [],
      tags: [],
      webhook_url: null,
      runs: { active: 0, total: 0 },
    });
    // The incomplete block is kept as sent; a complete one gets the contracts' defaults.
    expect(a.blocks[0].config).toEqual({ body: '' });
    expect(a.blocks[1].config).toEqual({ amount: 1, unit: 'seconds' });
    expect(a.share_token).toMatch(/^[\w-]{32}$/);
    const one = await api(admin).get(`${base}/${a.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toEqual(a);

    const other = await create(admin, { name: 'Spring journey' });
    const found = await api(admin).get(`${base}?search=half&status=inactive&trigger=sms-keyword`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.map((x: { id: number }) => x.id)).toEqual([a.id]);
    expect(
      (await api(admin).get(`${base}?trigger=missed-call`)).json().data.map((x: { id: number }) => x.id),
    ).toContain(other.id);
    expect((await api(admin).get(`${base}?status=active&search=half`)).json().meta.total).toBe(0);
    const page = await api(admin).get(`${base}?perPage=1`);
    expect(page.json().data).toHaveLength(1);
    expect(page.json().meta.total).toBeGreaterThanOrEqual(2);
    const all = await api(admin).get(`${base}/all`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toEqual(
      expect.arrayContaining([
        { id: a.id, name: 'Half done', active: false },
        { id: other.id, name: 'Spring journey', active: false },
      ]),
    );
  });

  it('activates on create when the check finds nothing', async () => {
    const res = await api(admin).post(base, journey({ name: 'Live one', active: true, tags: [vip] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Automation saved and activated.');
    expect(res.json().data).toMatchObject({ active: true, tags: [vip] });
    expect(res.json().data.blocks[1].config).toEqual({
      body: 'Hi {first_name|there}, sorry we missed you!',
      template_id: null,
      media_ids: [],
    });
  });

  it('refuses activation with every problem of the check, each on its block, and saves nothing', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    const res = await api(admin).post(base, {
      name: 'Broken',
      active: true,
      trigger: { kind: 'sms-keyword', config: { keywords: [] }, start: 'text' },
      blocks: [
        { id: 'text', type: 'SendMessage', config: { body: ' ' }, outputs: { next: 'nowhere' } },
        { id: 'wait', type: 'Wait', config: { amount: 0 }, outputs: { next: null } },
        { id: 'ask', type: 'Condition', config: { kind: 'tag' }, outputs: { yes: null, maybe: null } },
      ],
    });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.code).toBe('VALIDATION');
    expect(body.errors).toEqual({
      'trigger.config.keywords': ['Enter at least one keyword.'],
      'blocks.text.body': ['Write a message, pick a template or add an image.'],
      'blocks.text.outputs.next': ['This branch leads to a block that does not exist.'],
      'blocks.wait.amount': ['Enter a whole number of at least 1.'],
      'blocks.wait': ['This block cannot be reached from the trigger. Connect it or remove it.'],
      'blocks.ask.tag_id': ['Choose the tag to test.'],
      'blocks.ask.outputs.maybe': ['This block has no such branch.'],
      'blocks.ask': ['This block cannot be reached from the trigger. Connect it or remove it.'],
    });
    expect(body.data.problems).toContainEqual({
      block_id: 'text',
      field: 'outputs.next',
      message: 'automations.branch_dangling',
      key: 'blocks.text.outputs.next',
    });
    const es = await h.t.app.inject({
      method: 'POST',
      url: base,
      headers: { ...bearer(admin), 'accept-language': 'es' },
      payload: journey({ active: true, trigger: { kind: 'missed-call', config: {}, start: null } }),
    });
    expect422(es, 'trigger.start', 'Agregue un primer bloque después del disparador.');
    // A loop is refused too.
    const loop = await api(admin).post(
      base,
      journey({
        active: true,
        blocks: [
          { id: 'wait', type: 'Wait', config: {}, outputs: { next: 'again' } },
          { id: 'again', type: 'Wait', config: {}, outputs: { next: 'wait' } },
        ],
      }),
    );
    expect422(loop, 'blocks.again', 'This block leads back to an earlier block: a journey cannot loop.');
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it("refuses another business's ids, each on its field, on a draft too, and saves nothing", async () => {
    const [tpl] = await q(
      "insert into templates (agency_id, business_id, name, body, provider) values ($1, $2, 'B promo', 'B', 'sms') returning id",
      [h.seed.b.agency.id, h.seed.b.business.id],
    );
    const [mediaB] = await q(
      "insert into medias (agency_id, business_id, url, name, mime, size) values ($1, $2, '/uploads/b.png', 'b.png', 'image/png', 1) returning id",
      [h.seed.b.agency.id, h.seed.b.business.id],
    );
    const installB = (await h.install({}, { tenant: 'b' })).id;
    const otherB = await create(adminB, { name: 'B journey', blocks: [], trigger: { kind: 'new-tag' } });
    const before = await snapshot(h.t.pool, TABLES);
    const res = await api(admin).post(base, {
      name: 'Strangers',
      installs: [installB],
      tags: [tagB],
      trigger: { kind: 'new-tag', config: {}, start: 'text' },
      blocks: [
        {
          id: 'text',
          type: 'SendMessage',
          config: { body: '', template_id: tpl.id, media_ids: [mediaB.id] },
          outputs: { next: 'tag' },
        },
        { id: 'tag', type: 'AddTag', config: { add: [vip], remove: [tagB] }, outputs: { next: 'if' } },
        { id: 'if', type: 'Condition', config: { kind: 'tag', tag_id: tagB }, outputs: {} },
        {
          id: 'tell',
          type: 'Alert',
          config: { channels: ['task'], user_ids: [h.seed.b.businessAdmin.id], message: 'x' },
        },
        { id: 'hand', type: 'AddToAutomation', config: { automation_id: otherB.id } },
        { id: 'call', type: 'SendCall', config: { mode: 'recording', media_id: mediaB.id } },
      ],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual({
      installs: ['Choose websites of this business.'],
      tags: ['Choose tags of this business.'],
      'blocks.text.template_id': ['Choose an active text template of this business.'],
      'blocks.text.media_ids': ["Choose files of this business's media library."],
      'blocks.tag.remove': ['Choose tags of this business.'],
      'blocks.if.tag_id': ['Choose tags of this business.'],
      'blocks.tell.user_ids': ['Choose users of this business.'],
      'blocks.hand.automation_id': ['Choose another automation of this business.'],
      'blocks.call.media_id': ["Choose files of this business's media library."],
    });
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('refuses a body that is not an automation, naming each field', async () => {
    const res = await api(admin).post(base, { name: '', trigger: { kind: 'nope' }, blocks: [{ id: 'x' }] });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['blocks.0.type', 'name', 'trigger.kind']);
  });

  it('saves a new version, activates and deactivates by PUT, and refuses an incomplete activation', async () => {
    const a = await create(admin, { name: 'Versioned' });
    const [{ version: v1 }] = await q('select version from automations where id = $1', [a.id]);
    const upd = await api(admin).put(`${base}/${a.id}`, journey({ name: 'Versioned 2', active: true }));
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().message).toBe('Automation updated successfully.');
    expect(upd.json().data).toMatchObject({ name: 'Versioned 2', active: true });
    const [{ version: v2 }] = await q('select version from automations where id = $1', [a.id]);
    expect(v2).toBe(v1 + 1);
    // An AddToAutomation may not hand a contact to the automation itself.
    const self = await api(admin).put(
      `${base}/${a.id}`,
      journey({ blocks: [{ id: 'hand', type: 'AddToAutomation', config: { automation_id: a.id } }] }),
    );
    expect422(self, 'blocks.hand.automation_id', 'Choose another automation of this business.');
    const before = await snapshot(h.t.pool, TABLES);
    const bad = await api(admin).put(
      `${base}/${a.id}`,
      journey({ active: true, blocks: [{ id: 'wait', type: 'Wait', config: {}, outputs: { next: 'x' } }] }),
    );
    expect422(bad, 'blocks.wait.outputs.next', 'This branch leads to a block that does not exist.');
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    const off = await api(admin).put(`${base}/${a.id}`, journey({ name: 'Versioned 2', active: false }));
    expect(off.json().data.active).toBe(false);
  });
});

describe('automations: toggle, delete, duplicate', () => {
  it('toggles on (the check) and off', async () => {
    const a = await create(admin, { name: 'Toggled' });
    const on = await api(admin).put(`${base}/${a.id}/toggle`, { active: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ message: 'Automation activated.', data: { active: true } });
    const off = await api(admin).put(`${base}/${a.id}/toggle`, { active: false });
    expect(off.json()).toMatchObject({ message: 'Automation deactivated.', data: { active: false } });
    const draft = await create(admin, {
      name: 'Toggled draft',
      blocks: [{ id: 'text', type: 'SendMessage', config: {}, outputs: {} }],
      trigger: { kind: 'missed-call', config: {}, start: 'text' },
    });
    const before = await snapshot(h.t.pool, TABLES);
    const refused = await api(admin).put(`${base}/${draft.id}/toggle`, { active: true });
    expect422(refused, 'blocks.text.body', 'Write a message, pick a template or add an image.');
    expect(refused.json().reason).toBe('automations.cannot_activate');
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    const missing = await api(admin).put(`${base}/${a.id}/toggle`, {});
    expect(missing.statusCode, missing.body).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['active']);
  });

  it('deletes (soft): gone from the lists and 404 after', async () => {
    const a = await create(admin, { name: 'Doomed', active: true });
    const del = await api(admin).del(`${base}/${a.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe('Automation deleted successfully.');
    expect((await api(admin).get(`${base}/${a.id}`)).statusCode).toBe(404);
    expect((await api(admin).del(`${base}/${a.id}`)).statusCode).toBe(404);
    expect((await api(admin).get(`${base}/all`)).json().data.map((x: { id: number }) => x.id)).not.toContain(
      a.id,
    );
    const [row] = await q('select active, deleted_at from automations where id = $1', [a.id]);
    expect(row.active).toBe(false);
    expect(row.deleted_at).not.toBeNull();
  });

  it('duplicates within the business: " (copy)", inactive, its own share link', async () => {
    const a = await create(admin, { name: 'Original', active: true, tags: [vip] });
    const res = await api(admin).post(`${base}/${a.id}/duplicate`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Automation duplicated. It is inactive until you activate it.');
    const copy = res.json().data;
    const orig = (await api(admin).get(`${base}/${a.id}`)).json().data;
    expect(copy).toMatchObject({ name: 'Original (copy)', active: false, tags: [vip], blocks: orig.blocks });
    expect(copy.id).not.toBe(a.id);
    expect(copy.share_token).not.toBe(orig.share_token);
  });
});

describe('automations: the plan limit', () => {
  it('holds on create (all automations) and on activation (active ones), naming the limit', async () => {
    await setLimit('b', 2);
    const [{ n }] = await q(
      'select count(*)::int as n from automations where business_id = $1 and deleted_at is null',
      [h.seed.b.business.id],
    );
    for (let i = n; i < 2; i++) await create(adminB, { name: `B ${i}`, tags: [], blocks: [] });
    const before = await snapshot(h.t.pool, TABLES);
    const res = await api(adminB).post(base, journey({ name: 'One too many', tags: [], blocks: [] }));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(
      'Your plan allows 2 automations. Delete one or contact your agency to increase your limit.',
    );
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    // Room again once they are deleted; the active limit then holds when the plan shrinks.
    for (const x of (await api(adminB).get(`${base}/all`)).json().data)
      expect((await api(adminB).del(`${base}/${x.id}`)).statusCode).toBe(200);
    const bJourney = { trigger: { kind: 'missed-call', start: 'w' }, blocks: [{ id: 'w', type: 'Wait' }] };
    const live = await api(adminB).post(base, { name: 'B live', ...bJourney, active: true });
    expect(live.statusCode, live.body).toBe(200);
    const ready = await api(adminB).post(base, { name: 'B ready', ...bJourney });
    expect(ready.statusCode, ready.body).toBe(200);
    await setLimit('b', 1);
    const blocked = await api(adminB).put(`${base}/${ready.json().data.id}/toggle`, { active: true });
    expect(blocked.statusCode, blocked.body).toBe(422);
    expect(blocked.json().message).toBe(
      'Your plan allows 1 active automation. Deactivate one or contact your agency to increase your limit.',
    );
    expect((await api(adminB).get(`${base}/${ready.json().data.id}`)).json().data.active).toBe(false);
    await setLimit('b', 10);
  });
});

describe('automations: the inbound URL of webhook triggers', () => {
  it('gives a fresh token, saves it with the automation, and answers it again', async () => {
    const fresh = await api(admin).get(`${base}/new-webhook`);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const { token, url } = fresh.json().data;
    expect(url).toBe(`${PUBLIC}/webhooks/automations/${token}`);
    const second = (await api(admin).get(`${base}/new-webhook`)).json().data;
    expect(second.token).not.toBe(token);
    const a = await create(admin, {
      name: 'Hooked',
      trigger: { kind: 'webhook', config: {}, start: 'wait' },
      webhook_token: token,
    });
    expect((await api(admin).get(`${base}/${a.id}`)).json().data.webhook_url).toBe(url);
    const unique = await api(admin).get(`${base}/${a.id}/unique-id`);
    expect(unique.statusCode, unique.body).toBe(200);
    expect(unique.json().data).toEqual({ token, url });
    // The same token for another automation is refused.
    const before = await snapshot(h.t.pool, TABLES);
    expect422(
      await api(admin).post(
        base,
        journey({ trigger: { kind: 'webhook', config: {}, start: 'wait' }, webhook_token: token }),
      ),
      'webhook_token',
      'This webhook address is already used by another automation. Get a new one.',
    );
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    // A home-advisor automation without a token sent gets one of its own; another trigger gets one on asking.
    const ha = await create(admin, {
      name: 'Leads',
      trigger: { kind: 'home-advisor', config: {}, start: 'wait' },
    });
    expect((await api(admin).get(`${base}/${ha.id}`)).json().data.webhook_url).toMatch(
      /^http:\/\/localhost:3000\/webhooks\/automations\/[\w-]{24}$/,
    );
    const plain = await create(admin, { name: 'Plain' });
    const made = (await api(admin).get(`${base}/${plain.id}/unique-id`)).json().data;
    expect((await api(admin).get(`${base}/${plain.id}/unique-id`)).json().data).toEqual(made);
  });
});

describe('automations: access', () => {
  it("answers 404 for another business's automation, changing nothing", async () => {
    const mine = await create(admin, { name: 'Mine' });
    const theirs = await create(adminB, { name: 'Theirs', tags: [], blocks: [] });
    const calls = [
      { method: 'GET', url: `${base}/${theirs.id}`, control: { url: `${base}/${mine.id}` } },
      {
        method: 'PUT',
        url: `${base}/${theirs.id}`,
        payload: journey(),
        control: { url: `${base}/${mine.id}`, payload: journey({ name: 'Mine' }) },
      },
      {
        method: 'PUT',
        url: `${base}/${theirs.id}/toggle`,
        payload: { active: false },
        control: { url: `${base}/${mine.id}/toggle`, payload: { active: false } },
      },
      {
        method: 'POST',
        url: `${base}/${theirs.id}/duplicate`,
        control: { url: `${base}/${mine.id}/unique-id`, method: 'GET' },
      },
      {
        method: 'GET',
        url: `${base}/${theirs.id}/unique-id`,
        control: { url: `${base}/${mine.id}/unique-id` },
      },
      {
        method: 'DELETE',
        url: `${base}/${theirs.id}`,
        control: { url: `${base}/${mine.id}`, method: 'GET' },
      },
    ] as const;
    for (const c of calls)
      await expectCrossTenant404(h.t, {
        token: admin,
        method: c.method,
        url: c.url,
        ...('payload' in c ? { payload: c.payload } : {}),
        control: { method: c.method, ...c.control } as never,
        tables: TABLES,
      });
  });

  it('refuses a user whose type has no automation page (403), and lets a custom type with it in', async () => {
    const sales = await h.token(h.seed.a.businessUser.email);
    expect((await api(sales).get(base)).statusCode).toBe(403);
    expect((await api(sales).post(base, journey())).statusCode).toBe(403);
    const without = await addBusinessUser(h.t, h.seed.a.business.id, 'custom-no@a.test', '4', ['inbox_page']);
    const withPage = await addBusinessUser(h.t, h.seed.a.business.id, 'custom-yes@a.test', '4', [
      'automation_page',
    ]);
    expect((await api(await login(h.t.app, without.email)).get(base)).statusCode).toBe(403);
    expect((await api(await login(h.t.app, withPage.email)).get(base)).statusCode).toBe(200);
  });
});
