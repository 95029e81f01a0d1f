// The tenant filter on contacts at every way in (list, search, filter by install, get, update, delete,
// export), and an import whose bad phones are reported by line while nothing of them is imported and the
// valid rows are kept (issue 18: each rested on one assertion).
import { beforeAll, describe, expect, it } from 'vitest';
import { rows, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite();
const admin = () => c.token(c.seed.a.businessAdmin.email);
const adminB = () => c.token(c.seed.b.businessAdmin.email);

async function installOf(token: string, businessId: number): Promise<number> {
  await c.t.pool.query('update businesses set number_of_installs = 100 where id = $1', [businessId]);
  const res = await c.api.post(token, '/api/v1/installs', {
    name: 'Contacts site',
    website: 'https://example.test',
    settings: { timezone: 'UTC' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

let mine: { id: number; phone: string };
let theirs: { id: number; phone: string };
let myInstall: number;
let theirInstall: number;

beforeAll(async () => {
  myInstall = await installOf(await admin(), c.seed.a.business.id);
  theirInstall = await installOf(await adminB(), c.seed.b.business.id);
  const make = async (token: string, phone: string, install: number, first_name: string) => {
    const res = await c.api.post(token, '/api/v1/contacts', { phone, first_name, install_id: install });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; phone: string };
  };
  mine = await make(await admin(), '+14155557001', myInstall, 'Mina');
  theirs = await make(await adminB(), '+14155557002', theirInstall, 'Theo');
});

describe("another business's contacts", () => {
  it('are never listed, found, filtered for, read, changed, deleted or exported', async () => {
    const token = await admin();
    const ids = (body: { data: { id: number }[] }) => body.data.map((x) => x.id);

    const list = await c.api.get(token, '/api/v1/contacts');
    expect(list.statusCode, list.body).toBe(200);
    expect(ids(list.json())).toContain(mine.id);
    expect(ids(list.json())).not.toContain(theirs.id);
    const search = await c.api.get(token, `/api/v1/contacts?keyword=${encodeURIComponent('Theo')}`);
    expect(search.statusCode, search.body).toBe(200);
    expect(ids(search.json())).toEqual([]);
    const byPhone = await c.api.get(token, '/api/v1/contacts?keyword=5557002');
    expect(ids(byPhone.json())).toEqual([]);
    const byInstall = await c.api.get(token, `/api/v1/contacts?install_id=${theirInstall}`);
    expect(byInstall.body).not.toContain('Theo');
    expect(byInstall.statusCode, byInstall.body).toBe(200);
    expect(ids(byInstall.json())).toEqual([]);

    const before = await snapshot(c.t.pool, ['contacts']);
    const get = await c.api.get(token, `/api/v1/contacts/${theirs.id}`);
    expect(get.statusCode).toBe(404);
    expect(get.body).not.toContain('Theo');
    const put = await c.api.put(token, `/api/v1/contacts/${theirs.id}`, { first_name: 'Stolen' });
    expect(put.statusCode).toBe(404);
    const del = await c.api.del(token, `/api/v1/contacts/${theirs.id}`);
    expect(del.statusCode).toBe(404);
    const exported = await c.api.get(token, `/api/v1/chats/installs/${theirInstall}/contacts/export`);
    expect(exported.statusCode).toBe(404);
    expect(exported.body).not.toContain('5557002');
    expect(await snapshot(c.t.pool, ['contacts'])).toEqual(before);
    const [still] = await rows(c.t, 'select first_name, deleted_at from contacts where id = $1', [theirs.id]);
    expect(still).toMatchObject({ first_name: 'Theo', deleted_at: null });

    // The same calls on the caller's own contact and install do answer (the 404s above are the filter's).
    expect((await c.api.get(token, `/api/v1/contacts/${mine.id}`)).statusCode).toBe(200);
    const own = await c.api.get(token, `/api/v1/chats/installs/${myInstall}/contacts/export`);
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('+14155557001');
    expect(own.body).not.toContain('5557002');
    // And the other business sees its own.
    const theirList = await c.api.get(await adminB(), '/api/v1/contacts');
    expect(ids(theirList.json())).toEqual([theirs.id]);
  });
});

describe('an import with invalid phones', () => {
  it('reports each bad phone by its line, imports none of them, and keeps every valid row', async () => {
    const token = await admin();
    const csv = [
      'phone,first_name',
      '+14155557101,Valid One',
      'not-a-phone,Letters',
      '+1415555,Too Short',
      '4155557102,Valid Two',
      '+999123456789,No Country',
      '(415) 555-7103,Valid Three',
    ].join('\n');
    const started = await c.api.post(token, '/api/v1/contacts/import', { csv });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().data.import_id as number;
    await expect
      .poll(async () => (await c.api.get(token, `/api/v1/contacts/import/${id}`)).json().status, {
        timeout: 60_000,
      })
      .toBe('done');
    const body = (await c.api.get(token, `/api/v1/contacts/import/${id}`)).json();
    expect(body).toMatchObject({ status: 'done', total: 6, processed: 6, imported: 3 });
    expect(body.errors).toEqual([
      { line: 3, message: 'The phone "not-a-phone" is not a valid phone number.' },
      { line: 4, message: 'The phone "+1415555" is not a valid phone number.' },
      { line: 6, message: 'The phone "+999123456789" is not a valid phone number.' },
    ]);
    const names = await rows(
      c.t,
      "select first_name, phone from contacts where business_id = $1 and first_name in ('Valid One', 'Valid Two', 'Valid Three', 'Letters', 'Too Short', 'No Country') order by phone",
      [c.seed.a.business.id],
    );
    expect(names).toEqual([
      { first_name: 'Valid One', phone: '+14155557101' },
      { first_name: 'Valid Two', phone: '+14155557102' },
      { first_name: 'Valid Three', phone: '+14155557103' },
    ]);
  });
});
