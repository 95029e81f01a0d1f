import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  bearer,
  call,
  drainJobs,
  expect422,
  expectCrossTenant404,
  login,
  snapshot,
} from '../../../test/helpers.ts';
import { inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { type Telephony, telephonyApp, VISITOR } from '../telephony/testing.ts';
import { enterContacts } from './engine.ts';

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

/** The API as `token`; the URL is the full path. */
const api = (token: string) => {
  const c = call(h.t);
  return {
    get: (url: string) => c.get(token, url),
    post: (url: string, payload: object = {}) => c.post(token, url, payload),
    put: (url: string, payload: object = {}) => c.put(token, url, payload),
    del: (url: string) => c.del(token, url),
  };
};

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
    // A tag deleted since the save keeps it off.
    const gone = await tag('a', 'Gone soon');
    const stale = await create(admin, {
      name: 'Stale tag',
      blocks: [{ id: 'tag', type: 'AddTag', config: { add: [gone] } }],
      trigger: { kind: 'missed-call', config: {}, start: 'tag' },
    });
    await q('delete from tags where id = $1', [gone]);
    expect422(
      await api(admin).put(`${base}/${stale.id}/toggle`, { active: true }),
      'blocks.tag.add',
      'Choose tags of this business.',
    );
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

describe('automations: templates, share links and clones', () => {
  let a2: string;
  let a2Business: number;
  let templateBiz: number;
  let mainTemplateBiz: number;
  let bTemplateBiz: number;

  /** An automation row of another business, as the API saves it. */
  async function row(businessId: number, agencyId: number, name: string, blocks: unknown[] = []) {
    const [r] = await q(
      `insert into automations (agency_id, business_id, name, start_trigger, trigger, blocks, options, share_token)
       values ($1, $2, $3, 'new-tag', $4, $5, '{"reentry":"after_finish"}', $6) returning id, share_token`,
      [
        agencyId,
        businessId,
        name,
        JSON.stringify({ kind: 'new-tag', config: {}, start: null, position: { x: 0, y: 0 } }),
        JSON.stringify(blocks),
        `tok-${name.replace(/\W/g, '')}-${'x'.repeat(24)}`.slice(0, 40),
      ],
    );
    return r as { id: number; share_token: string };
  }

  async function business(agencyId: number, name: string, isTemplate: boolean) {
    const [r] = await q(
      'insert into businesses (agency_id, name, is_template) values ($1, $2, $3) returning id',
      [agencyId, name, isTemplate],
    );
    return r.id as number;
  }

  beforeAll(async () => {
    a2Business = await business(h.seed.a.agency.id, 'Second A', false);
    const user = await addBusinessUser(h.t, a2Business, 'marketing@a2.test', '2');
    a2 = await login(h.t.app, user.email);
    templateBiz = await business(h.seed.a.agency.id, 'A templates', true);
    mainTemplateBiz = await business(h.seed.main.id, 'Platform templates', true);
    bTemplateBiz = await business(h.seed.b.agency.id, 'B templates', true);
  });

  it('lists the templates of the agency and of the platform, not of another agency, and shows one', async () => {
    const mine = await row(templateBiz, h.seed.a.agency.id, 'Welcome series', [
      { id: 'w', type: 'Wait', config: {}, outputs: {}, position: { x: 0, y: 0 } },
      {
        id: 'hook',
        type: 'Webhook',
        config: { url: 'https://crm.example/x', headers: { 'x-api-key': 'secret' } },
        outputs: {},
        position: { x: 0, y: 0 },
      },
    ]);
    const platform = await row(mainTemplateBiz, h.seed.main.id, 'Birthday wishes');
    const theirs = await row(bTemplateBiz, h.seed.b.agency.id, 'B secret sauce');
    // Every business of a template agency holds templates for all.
    const [tplAgency] = await q(
      "insert into agencies (name, is_template) values ('Template agency', true) returning id",
    );
    const agencyWide = await row(await business(tplAgency.id, 'Dentists', false), tplAgency.id, 'Recall');
    const res = await api(admin).get(`${base}/templates`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().data as { id: number; name: string; block_kinds: string[] }[];
    expect(list.map((x) => x.id).sort()).toEqual([mine.id, platform.id, agencyWide.id].sort());
    const forB = (await api(adminB).get(`${base}/templates`)).json().data.map((x: { id: number }) => x.id);
    expect(forB.sort()).toEqual([theirs.id, platform.id, agencyWide.id].sort());
    expect(list.find((x) => x.id === mine.id)).toMatchObject({
      name: 'Welcome series',
      start_trigger: 'new-tag',
      block_kinds: ['Wait', 'Webhook'],
      share_token: mine.share_token,
    });
    const one = await api(admin).get(`${base}/template/${mine.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toMatchObject({ name: 'Welcome series', webhook_url: null });
    // Another business's webhook headers (an API key) are not shown.
    expect(one.json().data.blocks[1].config).toEqual({ url: 'https://crm.example/x', headers: {} });
    expect((await api(admin).get(`${base}/template/${theirs.id}`)).statusCode).toBe(404);
    // The ordinary automations of the agency are no templates.
    const plain = await create(admin, { name: 'Not a template' });
    expect((await api(admin).get(`${base}/template/${plain.id}`)).statusCode).toBe(404);
    // A template's token clones it across agencies (the platform's), as the gallery offers.
    const cloned = await api(adminB).post(`${base}/${platform.share_token}/clone`);
    expect(cloned.statusCode, cloned.body).toBe(200);
    expect(cloned.json().data).toMatchObject({ name: 'Birthday wishes', active: false });
  });

  it('previews and imports a share link into a second business, mapping tags by name and dropping the rest', async () => {
    const [tpl] = await q(
      "insert into templates (agency_id, business_id, name, body, provider) values ($1, $2, 'Promo', 'Hello {first_name|friend}', 'sms') returning id",
      [h.seed.a.agency.id, h.seed.a.business.id],
    );
    const [media] = await q(
      "insert into medias (agency_id, business_id, url, name, mime, size) values ($1, $2, '/uploads/a.png', 'a.png', 'image/png', 1) returning id",
      [h.seed.a.agency.id, h.seed.a.business.id],
    );
    const install = await h.install();
    const news = await tag('a', 'Newsletter');
    const target = await create(admin, { name: 'Hand-over target' });
    const src = await create(admin, {
      name: 'Shared journey',
      installs: [install.id],
      tags: [vip],
      trigger: { kind: 'new-tag', config: {}, start: 'text' },
      blocks: [
        {
          id: 'text',
          type: 'SendMessage',
          config: { body: '', template_id: tpl.id, media_ids: [media.id] },
          outputs: { next: 'tag' },
        },
        { id: 'tag', type: 'AddTag', config: { add: [vip], remove: [news] }, outputs: { next: 'if' } },
        {
          id: 'if',
          type: 'Condition',
          config: { kind: 'tag', tag_id: news },
          outputs: { yes: 'tell', no: 'hook' },
        },
        {
          id: 'tell',
          type: 'Alert',
          config: { channels: ['task'], user_ids: [h.seed.a.businessAdmin.id], message: 'New lead' },
          outputs: { next: 'hand' },
        },
        { id: 'hand', type: 'AddToAutomation', config: { automation_id: target.id } },
        {
          id: 'hook',
          type: 'Webhook',
          config: { url: 'https://crm.example/in', headers: { 'x-api-key': 'secret' } },
          outputs: { next: null },
        },
      ],
      active: true,
    });
    const preview = await api(a2).get(`${base}/shared/${src.share_token}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toEqual({
      name: 'Shared journey',
      start_trigger: 'new-tag',
      block_kinds: ['SendMessage', 'AddTag', 'Condition', 'Alert', 'AddToAutomation', 'Webhook'],
      business_name: 'Business A',
    });
    const res = await api(a2).post(`${base}/${src.share_token}/clone`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(
      'Automation imported into your business. It is inactive until you activate it.',
    );
    const copy = res.json().data;
    const tagsA2 = await q('select id, name from tags where business_id = $1 order by name', [a2Business]);
    const idOf = (name: string) => tagsA2.find((x: { name: string }) => x.name === name)?.id;
    expect(tagsA2.map((x: { name: string }) => x.name)).toEqual(['Newsletter', 'VIP']);
    expect(copy).toMatchObject({ name: 'Shared journey', active: false, installs: [], tags: [idOf('VIP')] });
    expect(copy.share_token).not.toBe(src.share_token);
    const blocks = Object.fromEntries(
      copy.blocks.map((b: { id: string; config: unknown }) => [b.id, b.config]),
    );
    expect(blocks).toEqual({
      text: { body: 'Hello {first_name|friend}', template_id: null, media_ids: [] },
      tag: { add: [idOf('VIP')], remove: [idOf('Newsletter')] },
      if: { kind: 'tag', tag_id: idOf('Newsletter'), field: null, value: '', outcome: null, within: null },
      tell: { channels: ['task'], user_ids: [], message: 'New lead' },
      hand: {},
      hook: { url: 'https://crm.example/in', headers: {} },
    });
    // Ready to be completed and activated there: only the hand-over's automation is missing.
    const check = await api(a2).put(`${base}/${copy.id}/toggle`, { active: true });
    expect(Object.keys(check.json().errors)).toEqual(['blocks.hand.automation_id']);
    // The business's own token makes a plain copy.
    const own = await api(admin).post(`${base}/${src.share_token}/clone`);
    expect(own.json().data).toMatchObject({
      name: 'Shared journey (copy)',
      installs: [install.id],
      tags: [vip],
    });
  });

  it('refuses a token of another agency or an unknown one (404), and holds the limit, changing nothing', async () => {
    const src = await create(admin, { name: 'Agency A only' });
    const before = await snapshot(h.t.pool, TABLES);
    for (const token of [src.share_token, 'no-such-token-at-all-1234567890']) {
      const preview = await api(adminB).get(`${base}/shared/${token}`);
      expect(preview.statusCode, preview.body).toBe(404);
      expect(preview.json().message).toBe('This share link is not valid any more. Ask for a new one.');
      expect((await api(adminB).post(`${base}/${token}/clone`)).statusCode).toBe(404);
    }
    await q('update businesses set number_of_automations = 1 where id = $1', [a2Business]);
    const full = await api(a2).post(`${base}/${src.share_token}/clone`);
    expect(full.statusCode, full.body).toBe(422);
    expect(full.json().message).toBe(
      'Your plan allows 1 automation. Delete one or contact your agency to increase your limit.',
    );
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });
});

describe('automations: test-sms and test-email', () => {
  it("texts a SendMessage's content now, filled for a sample contact, through the sandbox carrier", async () => {
    const install = await h.install();
    const [{ phone_number: from }] = await q('select phone_number from numbers where install_id = $1', [
      install.id,
    ]);
    const sent = () => [...h.sandbox.messages.values()].filter((m) => m.direction === 'outbound-api');
    const n0 = sent().length;
    const res = await api(admin).post(`${base}/test-sms`, { phone: VISITOR, body: 'Hi {first_name|there}!' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Test message sent successfully.');
    const out = sent().slice(n0);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ to: VISITOR, body: 'Hi Alex!' });
    expect(typeof from).toBe('string');
    const before = await snapshot(h.t.pool, ['businesses']);
    expect422(
      await api(admin).post(`${base}/test-sms`, { phone: VISITOR, body: ' ' }),
      'body',
      'Write a message, pick a template or add an image.',
    );
    expect((await api(admin).post(`${base}/test-sms`, { phone: 'nope', body: 'x' })).statusCode).toBe(422);
    expect(sent().length).toBe(n0 + 1);
    expect(await snapshot(h.t.pool, ['businesses'])).toEqual(before);
  });

  it("e-mails a SendEmail's content now: the outbox holds it", async () => {
    const res = await api(admin).post(`${base}/test-email`, {
      email: 'owner@example.test',
      subject: 'Hello {first_name}',
      body: 'Dear {first_name|friend}, welcome.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Test e-mail sent successfully.');
    const mails = await q(`select * from mail_outbox where "to" = 'owner@example.test'`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ subject: 'Hello Alex', text: 'Dear Alex, welcome.' });
    expect422(
      await api(admin).post(`${base}/test-email`, { email: 'not-an-address', subject: 's', body: 'b' }),
      'email',
      'Enter a valid e-mail address.',
    );
  });
});

describe('automations: journeys (the engine runs them; the API shows them)', () => {
  it("lists an automation's runs, one run step by step, block counts and a contact's runs; delete stops them", async () => {
    const a = await create(admin, {
      name: 'Slow journey',
      trigger: { kind: 'direct-call', config: {}, start: 'wait' },
      blocks: [{ id: 'wait', type: 'Wait', config: { amount: 1, unit: 'hours' }, outputs: { next: null } }],
      active: true,
    });
    const contacts = await q(
      `insert into contacts (agency_id, business_id, phone, first_name, last_name)
       values ($1, $2, '+14155557001', 'Ann', 'Lee'), ($1, $2, '+14155557002', 'Ben', 'Ray') returning id`,
      [h.seed.a.agency.id, h.seed.a.business.id],
    );
    const ids = contacts.map((c: { id: number }) => c.id);
    const ctx = tenantContext(
      h.t.app.deps,
      { level: 'business', agencyId: h.seed.a.agency.id, businessId: h.seed.a.business.id },
      { kind: 'system', source: 'seed', name: 'api test' },
    );
    const runIds = await inTransaction(ctx, (tx) =>
      enterContacts(tx, {
        automationId: a.id,
        trigger: 'direct-call',
        entries: ids.map((contactId: number) => ({ contactId, entryKey: `t-${contactId}` })),
      }),
    );
    expect(runIds).toHaveLength(2);
    await expect
      .poll(async () => (await api(admin).get(`${base}/${a.id}/runs?status=waiting`)).json().meta.total, {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(2);
    const list = await api(admin).get(`${base}/${a.id}/runs?block_id=wait`);
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list
        .json()
        .data.map((r: { contact_name: string }) => r.contact_name)
        .sort(),
    ).toEqual(['Ann Lee', 'Ben Ray']);
    expect((await api(admin).get(`${base}/${a.id}/runs?status=completed`)).json().meta.total).toBe(0);
    const one = await api(admin).get(`${base}/runs/${runIds[0]}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toMatchObject({
      id: runIds[0],
      automation_id: a.id,
      automation_name: 'Slow journey',
      status: 'waiting',
      current_block: 'wait',
      steps: [{ seq: 1, block_id: 'wait', type: 'Wait', status: 'waiting' }],
    });
    const blocks = await api(admin).get(`${base}/${a.id}/blocks`);
    expect(blocks.statusCode, blocks.body).toBe(200);
    expect(blocks.json().data).toEqual([{ block_id: 'wait', at: 2, passed: 0 }]);
    const mine = await api(admin).get(`${base}/contact/${ids[1]}/runs`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().data).toMatchObject([{ contact_id: ids[1], automation_name: 'Slow journey' }]);
    expect((await api(admin).get(`${base}/${a.id}`)).json().data.runs).toEqual({ active: 2, total: 2 });
    // Another business sees none of it.
    expect((await api(adminB).get(`${base}/runs/${runIds[0]}`)).statusCode).toBe(404);
    expect((await api(adminB).get(`${base}/contact/${ids[0]}/runs`)).statusCode).toBe(404);
    expect((await api(adminB).get(`${base}/${a.id}/runs`)).statusCode).toBe(404);
    expect((await api(adminB).get(`${base}/${a.id}/blocks`)).statusCode).toBe(404);
    // Deleting the automation stops its journeys.
    expect((await api(admin).del(`${base}/${a.id}`)).statusCode).toBe(200);
    const runs = await q('select status from automation_runs where automation_id = $1', [a.id]);
    expect(runs.map((r: { status: string }) => r.status)).toEqual(['stopped', 'stopped']);
  });
});
