// The free-demo opt-in (issue 23; spec 000 §2 "Opt-in demo modal", §5; spec 001 /v1/agencies/optin-users):
// the landing page's public form stores the request for the site's agency and queues its "New demo request"
// mail; every empty field is a 422 and nothing is stored; an unknown site is a 404; the agency's list (its
// own only, paged, by keyword) and its CSV download with formulas neutralised.
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, expect422, rows, useSuite } from '../../../test/helpers.ts';

const MAIN = 'platform.test';
const HOST_A = `agency-a.${MAIN}`;
const HOST_B = `agency-b.${MAIN}`;
const URL = '/api/v1/agencies/optin-users';

const c = useSuite({ env: { MAIN_DOMAIN: MAIN } });

let n = 0;
const person = (over: Record<string, unknown> = {}) => {
  n += 1;
  return {
    email: `visitor${n}@example.org`,
    full_name: `Visitor ${n}`,
    business_name: `Bakery ${n}`,
    phone: `555-010${n}`,
    ...over,
  };
};

/** A public call made on `host` (the landing page's site). */
const onHost = (host: string, payload: object) =>
  c.t.app.inject({ method: 'POST', url: URL, headers: { host }, payload });

const count = async (agencyId?: number) =>
  (
    await rows(
      c.t,
      agencyId
        ? 'select count(*)::int as n from optin_users where agency_id = $1'
        : 'select count(*)::int as n from optin_users',
      agencyId ? [agencyId] : [],
    )
  )[0].n as number;

const get = async (email: string, url: string) =>
  c.t.app.inject({ method: 'GET', url, headers: bearer(await c.token(email)) });

describe('POST /v1/agencies/optin-users', () => {
  beforeAll(async () => {
    // Agency B has an e-mail address of its own: its mail goes there; Agency A's to its AgencyAdmins.
    await c.t.pool.query('update agencies set email = $1 where id = $2', [
      'hello@agency-b.test',
      c.seed.b.agency.id,
    ]);
  });

  it('stores the request for the site of `domain` and queues "New demo request" to its AgencyAdmins', async () => {
    const p = person({ business_name: '  Vera Bakery  ' });
    const res = await c.api.post(null, URL, { ...p, domain: HOST_A });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Thanks for your submission. We will reach out to you soon!',
    });
    const [row] = await rows(c.t, 'select * from optin_users where email = $1', [p.email]);
    expect(row).toMatchObject({
      agency_id: c.seed.a.agency.id,
      full_name: p.full_name,
      business_name: 'Vera Bakery',
      phone: p.phone,
      domain: HOST_A,
    });
    const mails = await rows(c.t, 'select * from mail_outbox where agency_id = $1 and subject = $2', [
      c.seed.a.agency.id,
      'New demo request',
    ]);
    expect(mails.map((m) => m.to)).toEqual([c.seed.a.agencyAdmin.email]);
    for (const text of [p.email, p.full_name, 'Vera Bakery', p.phone, HOST_A])
      expect(mails[0].text).toContain(text);
  });

  it("falls back to the request's Host, and mails the agency's own address when it has one", async () => {
    const p = person();
    const res = await onHost(HOST_B, p);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await rows(c.t, 'select agency_id, domain from optin_users where email = $1', [p.email]);
    expect(row).toEqual({ agency_id: c.seed.b.agency.id, domain: HOST_B });
    const mails = await rows(c.t, 'select "to", text from mail_outbox where agency_id = $1', [
      c.seed.b.agency.id,
    ]);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('hello@agency-b.test');
    expect(mails[0].text).toContain(p.email);
  });

  it('answers 422 on each empty field and stores nothing (no format checks)', async () => {
    const before = await count();
    const mailsBefore = (await rows(c.t, 'select count(*)::int as n from mail_outbox'))[0].n;
    for (const [field, label] of [
      ['email', 'email'],
      ['full_name', 'full name'],
      ['business_name', 'business name'],
      ['phone', 'phone'],
    ] as const) {
      expect422(
        await c.api.post(null, URL, { ...person({ [field]: '   ' }), domain: HOST_A }),
        field,
        `The ${label} field is required`,
      );
      const { [field]: _, ...without } = person();
      expect422(
        await c.api.post(null, URL, { ...without, domain: HOST_A }),
        field,
        `The ${label} field is required`,
      );
    }
    expect(await count()).toBe(before);
    expect((await rows(c.t, 'select count(*)::int as n from mail_outbox'))[0].n).toBe(mailsBefore);
    // No format checks: any e-mail and phone text is taken; longer than 191 is not.
    const free = await c.api.post(
      null,
      URL,
      person({ email: 'not an address', phone: 'call me', domain: HOST_A }),
    );
    expect(free.statusCode, free.body).toBe(200);
    expect(
      (await c.api.post(null, URL, person({ full_name: 'x'.repeat(192), domain: HOST_A }))).statusCode,
    ).toBe(422);
  });

  it('answers 404 for an unknown or inactive site and stores nothing', async () => {
    const before = await count();
    expect((await c.api.post(null, URL, person({ domain: 'nobody.example.org' }))).statusCode).toBe(404);
    expect((await onHost('nobody.example.org', person())).statusCode).toBe(404);
    await c.t.pool.query("update agencies set status = 'archived' where id = $1", [c.seed.b.agency.id]);
    try {
      expect((await c.api.post(null, URL, person({ domain: HOST_B }))).statusCode).toBe(404);
    } finally {
      await c.t.pool.query("update agencies set status = 'active' where id = $1", [c.seed.b.agency.id]);
    }
    expect(await count()).toBe(before);
  });
});

describe('GET /v1/agencies/optin-users and its export', () => {
  beforeAll(async () => {
    for (const p of [
      person({ full_name: 'Zed Keyword', domain: HOST_A }),
      person({ business_name: '=HYPERLINK("http://evil.test")', domain: HOST_A }),
      person({ domain: HOST_A }),
    ]) {
      const res = await c.api.post(null, URL, p);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it("lists the agency's own requests, newest first, paged, with keyword over the four fields", async () => {
    const total = await count(c.seed.a.agency.id);
    const res = await get(c.seed.a.agencyAdmin.email, `${URL}?perPage=2&page=1`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ total, page: 1, perPage: 2 });
    expect(body.data).toHaveLength(2);
    const ids = (
      await rows(c.t, 'select id from optin_users where agency_id = $1 order by created_at desc, id desc', [
        c.seed.a.agency.id,
      ])
    ).map((r) => r.id);
    expect(body.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 2));
    const page2 = (await get(c.seed.a.agencyAdmin.email, `${URL}?perPage=2&page=2`)).json();
    expect(page2.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(2, 4));

    const kw = (await get(c.seed.a.agencyAdmin.email, `${URL}?keyword=zed%20key`)).json();
    expect(kw.meta.total).toBe(1);
    expect(kw.data[0]).toMatchObject({ full_name: 'Zed Keyword', domain: HOST_A });
    expect((await get(c.seed.a.agencyAdmin.email, `${URL}?keyword=HYPERLINK`)).json().meta.total).toBe(1);
    // The phone too (one request of the 422 test gave 'call me').
    expect((await get(c.seed.a.agencyAdmin.email, `${URL}?keyword=call%20me`)).json().meta.total).toBe(1);
    expect((await get(c.seed.a.agencyAdmin.email, `${URL}?keyword=%25`)).json().meta.total).toBe(0);
  });

  it("never shows another agency's requests; a business user is refused", async () => {
    const b = (await get(c.seed.b.agencyAdmin.email, URL)).json();
    expect(b.data.every((r: { domain: string }) => r.domain === HOST_B)).toBe(true);
    expect(b.meta.total).toBe(await count(c.seed.b.agency.id));
    expect((await get(c.seed.b.agencyAdmin.email, `${URL}?agency_id=${c.seed.a.agency.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await get(c.seed.b.agencyAdmin.email, `${URL}/export?agency_id=${c.seed.a.agency.id}`)).statusCode,
    ).toBe(404);
    for (const email of [c.seed.a.businessAdmin.email, c.seed.a.businessUser.email]) {
      expect((await get(email, URL)).statusCode).toBe(403);
      expect((await get(email, `${URL}/export`)).statusCode).toBe(403);
    }
    expect((await c.api.get(null, URL)).statusCode).toBe(401);
  });

  it('downloads the same rows as a CSV with a header row, formulas neutralised', async () => {
    const res = await get(c.seed.a.agencyAdmin.email, `${URL}/export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="agency-${c.seed.a.agency.id}-optin-users.csv"`,
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,email,full_name,business_name,phone,domain,created_at');
    expect(lines).toHaveLength(1 + (await count(c.seed.a.agency.id)));
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(res.body).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(res.body).toContain('Zed Keyword');
    const kw = await get(c.seed.a.agencyAdmin.email, `${URL}/export?keyword=zed`);
    expect(kw.body.trimEnd().split('\r\n')).toHaveLength(2);
  });
});
