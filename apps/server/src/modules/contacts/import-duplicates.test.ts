// Issue 17 (ADR 052): a tags cell "vip,cleaning" is two tags, and a phone that is already a contact, or
// is earlier in the file, is skipped (the default) or updates the contact, as asked: never silently, each
// such row is in the report.
import { describe, expect, it } from 'vitest';
import { rows, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite();
const admin = () => c.token(c.seed.a.businessAdmin.email);

async function importDone(csv: string, extra: Record<string, unknown> = {}) {
  const token = await admin();
  const started = await c.api.post(token, '/api/v1/contacts/import', { csv, ...extra });
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().import_id as number;
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await c.api.get(token, `/api/v1/contacts/import/${id}`);
    const body = res.json();
    if (body.status === 'done' || body.status === 'failed') return body;
    if (Date.now() > until) throw new Error(`import not done: ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const tagsOf = async (phone: string) =>
  (
    await rows(
      c.t,
      `select t.name from contact_tags ct join tags t on t.id = ct.tag_id
        join contacts k on k.id = ct.contact_id where k.phone = $1 and k.deleted_at is null order by 1`,
      [phone],
    )
  ).map((r) => r.name);
const contact = async (phone: string) =>
  (await rows(c.t, 'select * from contacts where phone = $1 and deleted_at is null', [phone]))[0];

describe('the tags cell', () => {
  it('splits "vip,cleaning" on commas (and ; |), trims, and keeps one of each', async () => {
    const body = await importDone(
      'phone,first_name,tags\n+15005550701,Tia,"vip,cleaning"\n+15005550702,Tom," VIP ; vip | cleaning ,, "\n',
    );
    expect(body).toMatchObject({ status: 'done', imported: 2, errors: [] });
    const lower = async (phone: string) => (await tagsOf(phone)).map((t) => t.toLowerCase()).sort();
    expect(await lower('+15005550701')).toEqual(['cleaning', 'vip']);
    expect(await lower('+15005550702')).toEqual(['cleaning', 'vip']);
    // One tag of each, shared by both contacts (tags are one per name whatever its case).
    const names = await rows(c.t, "select name from tags where lower(name) in ('vip', 'cleaning')");
    expect(names).toHaveLength(2);
  });
});

describe('duplicate phones', () => {
  it('skips, by default, a phone already a contact and a phone repeated in the file, and says so', async () => {
    const token = await admin();
    await c.api.post(token, '/api/v1/contacts', {
      phone: '+15005550711',
      first_name: 'Ann',
      email: 'a@x.test',
    });
    const body = await importDone(
      [
        'phone,first_name,email,tags',
        '+15005550711,Annie,annie@x.test,new',
        '+15005550712,Bob,,one',
        '+15005550712,Robert,bob@x.test,two',
      ].join('\n'),
    );
    expect(body).toMatchObject({
      status: 'done',
      duplicates: 'skip',
      imported: 1,
      updated: 0,
      skipped: 2,
      errors: [],
      duplicate_rows: [
        { line: 2, message: '+15005550711 is already a contact: the row was skipped.' },
        { line: 4, message: '+15005550712 is also on line 3: the row was skipped.' },
      ],
    });
    expect(await contact('+15005550711')).toMatchObject({ first_name: 'Ann', email: 'a@x.test' });
    expect(await tagsOf('+15005550711')).toEqual([]);
    expect(await contact('+15005550712')).toMatchObject({ first_name: 'Bob', email: null });
    expect(await tagsOf('+15005550712')).toEqual(['one']);
  });

  it('updates them when asked: the file gives values, empty cells keep, and the report says which', async () => {
    const body = await importDone(
      [
        'phone,first_name,email,tags',
        '+15005550711,Annie,,new',
        '+15005550721,Cy,,x',
        '+15005550721,,cy@x.test,y',
      ].join('\n'),
      { duplicates: 'update' },
    );
    expect(body).toMatchObject({
      status: 'done',
      duplicates: 'update',
      imported: 1,
      updated: 1,
      skipped: 0,
      errors: [],
      duplicate_rows: [
        { line: 2, message: '+15005550711 was already a contact: it was updated.' },
        { line: 4, message: '+15005550721 is also on line 3: the row updated that contact.' },
      ],
    });
    expect(await contact('+15005550711')).toMatchObject({ first_name: 'Annie', email: 'a@x.test' });
    expect(await tagsOf('+15005550711')).toEqual(['new']);
    expect(await contact('+15005550721')).toMatchObject({ first_name: 'Cy', email: 'cy@x.test' });
    expect(await tagsOf('+15005550721')).toEqual(['x', 'y']);
  });

  it('refuses an unknown duplicates choice with a 422 and stores nothing', async () => {
    const token = await admin();
    const before = await snapshot(c.t.pool, ['contacts', 'contact_imports']);
    const res = await c.api.post(token, '/api/v1/contacts/import', {
      csv: 'phone\n+15005550731\n',
      duplicates: 'overwrite',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['duplicates']);
    expect(await snapshot(c.t.pool, ['contacts', 'contact_imports'])).toEqual(before);
  });
});
