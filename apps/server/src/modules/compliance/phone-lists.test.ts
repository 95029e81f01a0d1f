import { describe, expect, it } from 'vitest';
import {
  addBusinessUser,
  expect422,
  expectCrossTenant404,
  rows,
  snapshot,
  touched,
  useSuite,
} from '../../../test/helpers.ts';

const c = useSuite();
const TABLES = ['phone_lists', 'audit_logs'];

const bizAdmin = () => c.token(c.seed.a.businessAdmin.email);

describe.each(['blacklist', 'whitelist'] as const)('%s', (list) => {
  const base = `/api/v1/${list}`;

  it('a business manager adds a number in E.164 to the business list', async () => {
    const res = await c.api.post(await bizAdmin(), base, { phone: '(213) 373-4253', note: 'spam' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ phone: '+12133734253', note: 'spam' });
    const stored = await rows(
      c.t,
      'select list, agency_id, business_id, phone from phone_lists where list = $1',
      [list],
    );
    expect(stored).toEqual([
      { list, agency_id: c.seed.a.agency.id, business_id: c.seed.a.business.id, phone: '+12133734253' },
    ]);
  });

  it('refuses a bad number and a duplicate (422, nothing saved)', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    expect422(
      await c.api.post(await bizAdmin(), base, { phone: '12345' }),
      'phone',
      'Wrong phone number format!!',
    );
    expect422(
      await c.api.post(await bizAdmin(), base, { phone: 'abc' }),
      'phone',
      'Wrong phone number format!!',
    );
    expect422(await c.api.post(await bizAdmin(), base, {}), 'phone', 'The phone field is required');
    expect422(
      await c.api.post(await bizAdmin(), base, { phone: '+1 213-373-4253' }),
      'phone',
      'This phone number is already on the list.',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it('keeps the platform list apart: admins see and write only entries with no tenant', async () => {
    const admin = await c.token(c.seed.admin.email);
    const res = await c.api.post(admin, base, { phone: '+12133734253' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await rows(c.t, 'select agency_id, business_id from phone_lists where id = $1', [
      res.json().data.id,
    ]);
    expect(row).toEqual({ agency_id: null, business_id: null });
    const adminList = (await c.api.get(admin, base)).json();
    expect(adminList.data.map((e: { id: number }) => e.id)).toEqual([res.json().data.id]);
    const bizList = (await c.api.get(await bizAdmin(), base)).json();
    expect(bizList.meta.total).toBe(1);
    expect(bizList.data[0].note).toBe('spam');
    expect((await c.api.get(await c.token(c.seed.b.businessAdmin.email), base)).json().data).toEqual([]);
    // Keyword on the number's digits.
    expect((await c.api.get(await bizAdmin(), `${base}?keyword=373-42`)).json().meta.total).toBe(1);
    expect((await c.api.get(await bizAdmin(), `${base}?keyword=999`)).json().meta.total).toBe(0);
  });

  it('refuses sales users, custom types without the page and agencies (403)', async () => {
    const page = `${list}_page`;
    const withPage = await addBusinessUser(c.t, c.seed.a.business.id, `${list}-page@a.test`, '4', [page]);
    const without = await addBusinessUser(c.t, c.seed.a.business.id, `${list}-none@a.test`, '4', [
      'inbox_page',
    ]);
    expect((await c.api.get(await c.token(withPage.email), base)).statusCode).toBe(200);
    const [entry] = await rows(
      c.t,
      'select id from phone_lists where list = $1 and business_id is not null',
      [list],
    );
    const before = await snapshot(c.t.pool, TABLES);
    for (const email of [c.seed.a.businessUser.email, without.email, c.seed.a.agencyAdmin.email]) {
      const token = await c.token(email);
      for (const res of [
        await c.api.get(token, base),
        await c.api.post(token, base, { phone: '+12133734254' }),
        await c.api.del(token, `${base}/${entry.id}`),
      ]) {
        expect(res.statusCode, `${email}: ${res.body}`).toBe(403);
      }
    }
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it("answers 404 for another business's entry and for the platform's entry", async () => {
    const [entry] = await rows(
      c.t,
      'select id from phone_lists where list = $1 and business_id is not null',
      [list],
    );
    const [platform] = await rows(c.t, 'select id from phone_lists where list = $1 and business_id is null', [
      list,
    ]);
    // Each control deletes an entry of the caller's own list, added for it (the route exists).
    const spare = async (token: string, phone: string) => {
      const res = await c.api.post(token, base, { phone });
      expect(res.statusCode, res.body).toBe(200);
      return { url: `${base}/${res.json().data.id}` };
    };
    const other = await touched(c, c.seed.b.businessAdmin.email);
    await expectCrossTenant404(c.t, {
      token: other,
      method: 'DELETE',
      url: `${base}/${entry.id}`,
      control: await spare(other, '+12133734901'),
      tables: TABLES,
    });
    const own = await touched(c, c.seed.a.businessAdmin.email);
    await expectCrossTenant404(c.t, {
      token: own,
      method: 'DELETE',
      url: `${base}/${platform.id}`,
      control: await spare(own, '+12133734902'),
      tables: TABLES,
    });
    const platformAdmin = await touched(c, c.seed.admin.email);
    await expectCrossTenant404(c.t, {
      token: platformAdmin,
      method: 'DELETE',
      url: `${base}/${entry.id}`,
      control: await spare(platformAdmin, '+12133734903'),
      tables: TABLES,
    });
  });

  it('deletes an entry with an audit row', async () => {
    const [entry] = await rows(
      c.t,
      'select id, phone from phone_lists where list = $1 and business_id = $2',
      [list, c.seed.a.business.id],
    );
    const res = await c.api.del(await bizAdmin(), `${base}/${entry.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await rows(c.t, 'select id from phone_lists where id = $1', [entry.id])).toEqual([]);
    expect(
      await rows(c.t, "select * from audit_logs where action = $1 and data->>'phone' = $2", [
        `${list}.delete`,
        entry.phone,
      ]),
    ).toHaveLength(1);
  });
});

describe('POST /v1/blacklist/import', () => {
  const url = '/api/v1/blacklist/import';

  it('imports a list and a CSV text, skipping invalid and already listed numbers', async () => {
    const token = await bizAdmin();
    await c.api.post(token, '/api/v1/blacklist', { phone: '+12133734255' });
    const res = await c.api.post(token, url, {
      phones: ['+1 213 373 4256', '2133734255', 'nonsense'],
      csv: 'phone,name\n"(213) 373-4257",Bob\n+12133734256,Dup\n',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Cells: 3 phones + phone, name, (213)..., Bob, +1..., Dup = 9; 2 new numbers.
    expect(res.json().data).toEqual({
      imported: 2,
      skipped: 7,
      invalid: ['nonsense', 'phone', 'name', 'Bob', 'Dup'],
    });
    expect(res.json().message).toBe('2 numbers imported, 7 skipped.');
    const stored = await rows(
      c.t,
      "select phone from phone_lists where list = 'blacklist' and business_id = $1 order by phone",
      [c.seed.a.business.id],
    );
    expect(stored.map((r) => r.phone)).toEqual(['+12133734255', '+12133734256', '+12133734257']);
  });

  it('refuses an empty import and other roles (nothing saved)', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    expect422(await c.api.post(await bizAdmin(), url, {}), 'phones', 'The phones field is required');
    expect422(
      await c.api.post(await bizAdmin(), url, { phones: [], csv: '  ' }),
      'phones',
      'The phones field is required',
    );
    expect(
      (await c.api.post(await c.token(c.seed.a.businessUser.email), url, { phones: ['+12133734258'] }))
        .statusCode,
    ).toBe(403);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});
