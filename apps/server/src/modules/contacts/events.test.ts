import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers.ts';
import { contactAutomationAdded, contactTagged } from './service.ts';

// The contacts module's events (ADR 035, 039): `contact.tagged` once per contact and tag newly added,
// whichever call adds it (create, edit, single tag, bulk tag, the CSV import), and
// `contact.automation_added` once per contact newly recorded in an automation; nothing for a refused call.

const c = useSuite();
const admin = () => c.token(c.seed.a.businessAdmin.email);
const tagged: { businessId: number; contactId: number; tagId: number }[] = [];
const added: { businessId: number; contactId: number; automationId: number }[] = [];
const pairs = () => tagged.map((e) => `${e.contactId}:${e.tagId}`).sort();

beforeAll(() => {
  c.t.app.deps.events.on(contactTagged, (p) => {
    tagged.push({ businessId: p.businessId, contactId: p.contactId, tagId: p.tagId });
  });
  c.t.app.deps.events.on(contactAutomationAdded, (p) => {
    added.push({ businessId: p.businessId, contactId: p.contactId, automationId: p.automationId });
  });
});
beforeEach(() => {
  tagged.length = 0;
  added.length = 0;
});

async function make(phone: string, extra: object = {}): Promise<number> {
  const res = await c.api.post(await admin(), '/api/v1/contacts', { phone, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}
async function tag(name: string): Promise<number> {
  const res = await c.api.post(await admin(), '/api/v1/tags', { name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

describe('contact.tagged', () => {
  it('fires once per contact and tag added, on create, edit, single and bulk tagging', async () => {
    const token = await admin();
    const [t1, t2, t3] = [await tag('Ev one'), await tag('Ev two'), await tag('Ev three')];
    const x = await make('+15005550301', { tag_ids: [t1] });
    expect(tagged).toEqual([{ businessId: c.seed.a.business.id, contactId: x, tagId: t1 }]);

    tagged.length = 0;
    const y = await make('+15005550302');
    expect(tagged).toEqual([]);
    const bulk = await c.api.post(token, '/api/v1/contacts/tag', { ids: [x, y], tag_ids: [t1, t2] });
    expect(bulk.statusCode, bulk.body).toBe(200);
    // x had t1 already: three new links, three events.
    expect(pairs()).toEqual([`${x}:${t2}`, `${y}:${t1}`, `${y}:${t2}`].sort());

    tagged.length = 0;
    const again = await c.api.post(token, '/api/v1/contacts/tag', { ids: [x, y], tag_ids: [t1, t2] });
    expect(again.statusCode).toBe(200);
    expect(tagged).toEqual([]);

    // set: keeps t2 (not announced again), drops t1, adds t3.
    const set = await c.api.post(token, `/api/v1/contacts/${x}/tag`, { tag_ids: [t2, t3] });
    expect(
      set
        .json()
        .data.tags.map((t: { id: number }) => t.id)
        .sort(),
    ).toEqual([t2, t3].sort());
    expect(pairs()).toEqual([`${x}:${t3}`]);

    tagged.length = 0;
    const add = await c.api.post(token, `/api/v1/contacts/${y}/tag`, { tag_ids: [t2, t3], mode: 'add' });
    expect(add.statusCode).toBe(200);
    expect(pairs()).toEqual([`${y}:${t3}`]);

    tagged.length = 0;
    const removed = await c.api.post(token, `/api/v1/contacts/${y}/tag`, { tag_ids: [t3], mode: 'remove' });
    expect(removed.statusCode).toBe(200);
    expect(tagged).toEqual([]);

    const edit = await c.api.put(token, `/api/v1/contacts/${y}`, { tag_ids: [t1, t2, t3] });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(pairs()).toEqual([`${y}:${t3}`]);
  });

  it('fires nothing when the call is refused', async () => {
    const token = await admin();
    const t1 = await tag('Ev refused');
    const x = await make('+15005550303');
    const res = await c.api.post(token, '/api/v1/contacts/tag', { ids: [x, 999_999], tag_ids: [t1] });
    expect(res.statusCode).toBe(422);
    expect(tagged).toEqual([]);
  });

  it('fires for the tags the CSV import adds', async () => {
    const token = await admin();
    const csv = 'phone,first_name,tags\n+15005550311,Ima,Imported;Ev csv\n+15005550312,Ivo,Ev csv\n';
    const started = await c.api.post(token, '/api/v1/contacts/import', { csv });
    expect(started.statusCode, started.body).toBe(200);
    const until = Date.now() + 30_000;
    for (;;) {
      const res = await c.api.get(token, `/api/v1/contacts/import/${started.json().import_id}`);
      if (res.json().status === 'done') break;
      if (Date.now() > until) throw new Error(res.body);
      await new Promise((r) => setTimeout(r, 50));
    }
    const all = (await c.api.get(token, '/api/v1/tags/all')).json().data as { id: number; name: string }[];
    const id = (name: string) => all.find((t) => t.name === name)?.id;
    const list = (await c.api.get(token, '/api/v1/contacts?keyword=Ima')).json().data;
    const ima = list[0].id;
    const ivo = (await c.api.get(token, '/api/v1/contacts?keyword=Ivo')).json().data[0].id;
    expect(pairs()).toEqual(
      [`${ima}:${id('Imported')}`, `${ima}:${id('Ev csv')}`, `${ivo}:${id('Ev csv')}`].sort(),
    );
  });
});

describe('contact.automation_added', () => {
  it('fires once per contact newly recorded in an automation (its journey starts; see contact-calls.test.ts)', async () => {
    const token = await admin();
    const x = await make('+15005550322');
    const y = await make('+15005550323');
    const a = c.seed.a;
    const { rows } = await c.t.pool.query(
      `insert into automations (agency_id, business_id, name, start_trigger, trigger, active, blocks, options,
                                share_token)
       values ($1, $2, 'Welcome', 'direct-call', $3, true, $4, '{"reentry":"after_finish"}', md5(random()::text))
       returning id`,
      [
        a.agency.id,
        a.business.id,
        JSON.stringify({ kind: 'direct-call', config: {}, start: 'w', position: { x: 0, y: 0 } }),
        JSON.stringify([
          {
            id: 'w',
            type: 'Wait',
            config: { amount: 1, unit: 'days' },
            outputs: {},
            position: { x: 0, y: 0 },
          },
        ]),
      ],
    );
    const id = rows[0].id as number;
    expect((await c.api.post(token, `/api/v1/contacts/${x}/automation/${id}`)).statusCode).toBe(200);
    const bulk = await c.api.post(token, `/api/v1/contacts/bulk-automation/${id}`, { ids: [x, y] });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(added.map((e) => `${e.contactId}:${e.automationId}`).sort()).toEqual(
      [`${x}:${id}`, `${y}:${id}`].sort(),
    );
  });

  it('fires nothing for an automation that does not exist', async () => {
    const token = await admin();
    const x = await make('+15005550321');
    const one = await c.api.post(token, `/api/v1/contacts/${x}/automation/41`);
    expect(one.statusCode, one.body).toBe(404);
    const bulk = await c.api.post(token, '/api/v1/contacts/bulk-automation/41', { ids: [x] });
    expect(bulk.statusCode, bulk.body).toBe(404);
    expect(added).toEqual([]);
  });
});
