import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, useSuite } from '../../../test/helpers.ts';

// The platform admins' white-label list and certificate requests: each entry is shown with its agency
// (the agencies module's answer), a deleted agency's entry is not shown and cannot be certified.

const c = useSuite({ env: { MAIN_DOMAIN: 'platform.test' } });
let admin: string;
let agencyAdmin: string;
const entry: Record<'a' | 'b' | 'gone', number> = { a: 0, b: 0, gone: 0 };

const q = async (sql: string, params: unknown[] = []) => (await c.t.pool.query(sql, params)).rows;

beforeAll(async () => {
  const [gone] = await q(
    "insert into agencies (name, status, active) values ('Gone Agency', 'deleted', false) returning id",
  );
  const add = async (agencyId: number, domain: string) =>
    (
      await q('insert into whitelabels (agency_id, domain) values ($1, $2) returning id', [agencyId, domain])
    )[0].id as number;
  entry.a = await add(c.seed.a.agency.id, 'calls-a.example.com');
  entry.b = await add(c.seed.b.agency.id, 'calls-b.example.com');
  entry.gone = await add(gone.id, 'gone.example.com');
  admin = await login(c.t.app, c.seed.admin.email);
  agencyAdmin = await login(c.t.app, c.seed.a.agencyAdmin.email);
});

const list = async (query = '') => {
  const res = await c.t.app.inject({
    method: 'GET',
    url: `/api/v1/whitelabels${query}`,
    headers: bearer(admin),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /v1/whitelabels', () => {
  it("lists live agencies' entries newest first, each with its agency", async () => {
    const body = await list();
    expect(body.data.map((w: { id: number }) => w.id)).toEqual([entry.b, entry.a]);
    expect(body.meta.total).toBe(2);
    expect(body.data[1]).toMatchObject({
      domain: 'calls-a.example.com',
      cert_status: 'none',
      agency: { id: c.seed.a.agency.id, name: 'Agency A', status: 'active' },
    });
  });

  it("matches the keyword on the host or on the agency's name", async () => {
    expect((await list('?keyword=calls-a')).data.map((w: { id: number }) => w.id)).toEqual([entry.a]);
    expect((await list('?keyword=agency%20b')).data.map((w: { id: number }) => w.id)).toEqual([entry.b]);
    expect((await list('?keyword=gone')).data).toEqual([]);
  });

  it('is for platform admins only', async () => {
    const res = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/whitelabels',
      headers: bearer(agencyAdmin),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /v1/whitelabels/{id}/cert', () => {
  const cert = (id: number, token = admin) =>
    c.t.app.inject({ method: 'POST', url: `/api/v1/whitelabels/${id}/cert`, headers: bearer(token) });

  it('marks the entry pending, says what to do, and writes the audit trail', async () => {
    const res = await cert(entry.a);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: entry.a,
      cert_status: 'pending',
      agency: { id: c.seed.a.agency.id, name: 'Agency A' },
    });
    expect(res.json().data.cert_message).toContain('calls-a.example.com');
    expect(await q('select cert_status from whitelabels where id = $1', [entry.a])).toEqual([
      { cert_status: 'pending' },
    ]);
    const [log] = await q(
      "select actor_id, agency_id, data from audit_logs where action = 'whitelabel.cert_request'",
    );
    expect(log).toEqual({
      actor_id: c.seed.admin.id,
      agency_id: c.seed.a.agency.id,
      data: { whitelabel_id: entry.a, domain: 'calls-a.example.com' },
    });
  });

  it("answers 404 for a deleted agency's entry and an unknown one, 403 to agencies; nothing changes", async () => {
    expect((await cert(entry.gone)).statusCode).toBe(404);
    expect((await cert(999999)).statusCode).toBe(404);
    expect((await cert(entry.b, agencyAdmin)).statusCode).toBe(403);
    expect(
      await q('select cert_status from whitelabels where id = any($1) order by id', [[entry.b, entry.gone]]),
    ).toEqual([{ cert_status: 'none' }, { cert_status: 'none' }]);
  });
});
