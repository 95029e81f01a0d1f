// One reach rule wherever the business side dials or texts a number (ADR 051): premium-rate and
// shared-cost numbers never, abroad only the agency's allowed countries (Jamaica's +1 876 included). The
// widget, bookings and scheduled calls had it; contacts (create, edit, CSV import) and texts now do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

const US_PREMIUM = '+19002001234';
const UK_PREMIUM = '+449098790000';
const JAMAICA = '+18769251234';
const GOOD = '+14155550177';

let h: Telephony;
let token: string;
let installId: number;

beforeAll(async () => {
  h = await telephonyApp();
  token = await h.token(h.seed.a.businessAdmin.email);
  installId = (await h.install()).id;
});
afterAll(() => h?.close());

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  h.t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const count = async (sql: string, values: unknown[] = []) =>
  Number((await h.t.pool.query(sql, values)).rows[0]?.n);

describe('the reach rule on the business side', () => {
  it('refuses a contact with a premium-rate, shared-cost or not-allowed foreign number, on create and edit', async () => {
    for (const phone of [US_PREMIUM, UK_PREMIUM, JAMAICA]) {
      const res = await api('POST', '/api/v1/contacts', {
        phone,
        first_name: 'Fraud',
        install_id: installId,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.phone[0]).toMatch(/not (possible|available)/);
    }
    expect(await count("select count(*) as n from contacts where first_name = 'Fraud'")).toBe(0);

    const ok = await api('POST', '/api/v1/contacts', {
      phone: GOOD,
      first_name: 'Ok',
      install_id: installId,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const id = ok.json().data.id as number;
    const edit = await api('PUT', `/api/v1/contacts/${id}`, { phone: US_PREMIUM });
    expect(edit.statusCode, edit.body).toBe(422);
    expect(edit.json().errors.phone[0]).toContain('premium-rate');
    expect((await h.t.pool.query('select phone from contacts where id = $1', [id])).rows[0].phone).toBe(GOOD);
  });

  it('the agency allowing a country lets its numbers in', async () => {
    await h.t.pool.query(`update agencies set allowed_countries = '["US", "CA", "JM"]' where id = $1`, [
      h.seed.a.agency.id,
    ]);
    try {
      const res = await api('POST', '/api/v1/contacts', { phone: JAMAICA, first_name: 'Allowed' });
      expect(res.statusCode, res.body).toBe(200);
      // Premium-rate stays refused whatever the agency allows.
      const premium = await api('POST', '/api/v1/contacts', { phone: UK_PREMIUM, first_name: 'Still no' });
      expect(premium.statusCode).toBe(422);
    } finally {
      await h.t.pool.query(`update agencies set allowed_countries = '["US", "CA"]' where id = $1`, [
        h.seed.a.agency.id,
      ]);
      await h.t.pool.query('delete from contacts where phone = $1', [JAMAICA]);
    }
  });

  it('the CSV import reports each unreachable row and imports the others', async () => {
    const csv = [
      'phone,first_name',
      `${US_PREMIUM},Premium`,
      `${UK_PREMIUM},Uk`,
      `${JAMAICA},Jam`,
      '+14155550178,Fine',
    ].join('\n');
    const started = await api('POST', '/api/v1/contacts/import', { csv });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().import_id;
    let body: { status: string; imported: number; errors: { line: number; message: string }[] } | null = null;
    await expect
      .poll(
        async () => {
          body = (await api('GET', `/api/v1/contacts/import/${id}`)).json();
          return body?.status;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe('done');
    const done = body as unknown as { imported: number; errors: { line: number; message: string }[] };
    expect(done.imported).toBe(1);
    expect(done.errors.map((e) => e.line)).toEqual([2, 3, 4]);
    expect(done.errors[0]?.message).toBe(
      `The phone "${US_PREMIUM}" cannot be called or texted (a premium-rate or shared-cost number, or a country the agency does not allow).`,
    );
    expect(
      await count('select count(*) as n from contacts where phone = any($1)', [
        [US_PREMIUM, UK_PREMIUM, JAMAICA],
      ]),
    ).toBe(0);
  });

  it('sends no text, now or scheduled, to such a number already among the contacts', async () => {
    // A contact from before the rule (or a number whose country the agency allowed, then removed).
    const { rows } = await h.t.pool.query(
      `insert into contacts (agency_id, business_id, phone, install_id, source)
       values ($1, $2, $3, $4, 'cms') returning id`,
      [h.seed.a.agency.id, h.seed.a.business.id, US_PREMIUM, installId],
    );
    const contactId = rows[0].id as number;
    const now = await api('POST', `/api/v1/chats/contacts/${contactId}/messages`, { body: 'Hello' });
    expect(now.statusCode, now.body).toBe(422);
    expect(now.body).toContain('premium-rate');
    const later = await api('POST', `/api/v1/chats/contacts/${contactId}/messages`, {
      body: 'Hello later',
      send_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(later.statusCode, later.body).toBe(422);
    expect(await count('select count(*) as n from messages where contact_id = $1', [contactId])).toBe(0);
    expect(h.sandbox.phones.get(US_PREMIUM).texts).toEqual([]);
  });
});
