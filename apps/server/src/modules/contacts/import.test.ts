import { describe, expect, it } from 'vitest';
import { rows, useSuite } from '../../../test/helpers.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import {
  contactForSend,
  findOrCreateContactByPhone,
  setBlocked,
  setContactOptOut,
  setOptOut,
  touchContactConversation,
  touchLastMessage,
} from './service.ts';

const c = useSuite();
const admin = () => c.token(c.seed.a.businessAdmin.email);

/** Polls the import's progress through the API until it is done; the statuses seen on the way. */
async function waitDone(token: string, id: number) {
  const seen: { status: string; processed: number }[] = [];
  const until = Date.now() + 120_000;
  for (;;) {
    const res = await c.api.get(token, `/api/v1/contacts/import/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    seen.push({ status: body.status, processed: body.processed });
    if (body.status === 'done' || body.status === 'failed') return { body, seen };
    if (Date.now() > until) throw new Error(`import ${id} not done: ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the CSV import', () => {
  it('imports 10,000 rows as a job, reports each bad row with its line and reason, and imports the rest', async () => {
    const token = await admin();
    const field = await c.api.post(token, '/api/v1/contacts/fields', { label: 'Plan', key: 'plan' });
    expect(field.statusCode, field.body).toBe(200);
    const lines = ['Phone,First Name,last_name,email,birthday,tags,plan,shoe_size'];
    const bad = new Map<number, string>();
    let odd = 0;
    for (let i = 0; i < 10_000; i++) {
      const line = i + 2; // the header is line 1
      const phone = `+1500${String(5_000_000 + i).padStart(7, '0')}`;
      if (i % 1000 === 7) {
        lines.push(`not-a-phone,Bad,Row,,,,,`);
        bad.set(line, 'The phone "not-a-phone" is not a valid phone number.');
      } else if (i % 1000 === 8) {
        lines.push(`${phone},Bad,Mail,nope@,,,,`);
        bad.set(line, 'The email "nope@" is not a valid email address.');
      } else if (i % 1000 === 9) {
        lines.push(`,No,Phone,,,,,`);
        bad.set(line, 'The phone is missing.');
      } else if (i % 1000 === 10) {
        lines.push(`${phone},Bad,Date,,1990-13-01,,,`);
        bad.set(line, 'The birthday "1990-13-01" is not a date (YYYY-MM-DD).');
      } else if (i === 5) {
        // A quoted cell with a comma and a line break: one record over two lines.
        lines.push(`${phone},"Smith, Jr.","Multi\nLine",jo@example.com,4/1/1990,"VIP;Lead",gold,42`);
      } else {
        lines.push(`${phone},First${i},Last${i},,1990-01-01,${i % 2 ? 'Odd' : 'Even'},basic,`);
        if (i % 2) odd++;
      }
    }
    // The record with the line break shifts every later line by one.
    const shifted = new Map([...bad].map(([line, msg]) => [line > 7 ? line + 1 : line, msg]));
    const csv = lines.join('\r\n');
    const started = await c.api.post(token, '/api/v1/contacts/import', { csv });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().import_id;
    expect(started.json().data.import_id).toBe(id);
    const { body, seen } = await waitDone(token, id);
    expect(seen.some((s) => s.status === 'queued' || s.status === 'running')).toBe(true);
    expect(body).toMatchObject({
      status: 'done',
      total: 10_000,
      processed: 10_000,
      imported: 10_000 - bad.size,
    });
    const errors = body.errors as { line: number; message: string }[];
    expect(errors[0]).toEqual({
      line: 1,
      message: 'The column "shoe_size" is not a contact field and was ignored.',
    });
    expect(errors.slice(1)).toEqual([...shifted].map(([line, message]) => ({ line, message })));

    const [{ n }] = await rows(c.t, 'select count(*)::int as n from contacts where business_id = $1', [
      c.seed.a.business.id,
    ]);
    expect(n).toBe(10_000 - bad.size);
    const [jr] = await rows(
      c.t,
      "select *, birthday::text as bday from contacts where first_name = 'Smith, Jr.'",
    );
    expect(jr).toMatchObject({
      last_name: 'Multi\nLine',
      email: 'jo@example.com',
      bday: '1990-04-01',
      fields: { plan: 'gold' },
      source: 'cms',
    });
    const tags = await rows(
      c.t,
      'select t.name from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = $1 order by 1',
      [jr.id],
    );
    expect(tags.map((t) => t.name)).toEqual(['Lead', 'VIP']);
    const oddTag = await c.api.get(token, '/api/v1/tags?keyword=Odd');
    expect(oddTag.json().data[0]).toMatchObject({ name: 'Odd', contacts: odd });
    const [job] = await rows(c.t, 'select csv from contact_imports where id = $1', [id]);
    expect(job.csv).toBeNull();

    // A second file, asked to update, updates what it gives and keeps the rest.
    const again = await c.api.post(token, '/api/v1/contacts/import', {
      csv: `phone,first_name,plan\n${jr.phone},Joe,\n`,
      duplicates: 'update',
    });
    const second = await waitDone(token, again.json().import_id);
    expect(second.body).toMatchObject({ status: 'done', imported: 0, updated: 1, errors: [] });
    const [joe] = await rows(c.t, 'select * from contacts where id = $1', [jr.id]);
    expect(joe).toMatchObject({ first_name: 'Joe', last_name: 'Multi\nLine', fields: { plan: 'gold' } });
  }, 180_000);

  it('downloads the template and exports an install contacts as CSV that imports back', async () => {
    const token = await admin();
    const template = await c.api.get(token, '/api/v1/contacts/template-download');
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toContain('text/csv');
    expect(template.body.split('\r\n')[0]).toBe('phone,first_name,last_name,email,birthday,tags,plan');

    const [inst] = await rows(
      c.t,
      "insert into installs (agency_id, business_id, name, website, key) values ($1, $2, 'Shop site', 'https://a.test', 'k-export') returning id",
      [c.seed.a.agency.id, c.seed.a.business.id],
    );
    await c.api.post(token, '/api/v1/contacts', {
      phone: '+15005550177',
      first_name: '=cmd()',
      install_id: inst.id,
      fields: { plan: 'pro' },
    });
    const res = await c.api.get(token, `/api/v1/chats/installs/${inst.id}/contacts/export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="contacts-Shop-site.csv"');
    const [header, first] = res.body.split('\r\n');
    expect(header).toBe(
      'phone,first_name,last_name,email,birthday,tags,plan,anniversary,source,opted_out,blocked,last_message_at,created_at',
    );
    // A formula is neutralised by the one CSV writer.
    expect(first).toMatch(/^'\+15005550177,'=cmd\(\),,,,,pro,,cms,no,no,,/);
    // The file imports back as it is: the marks come off, the export's own columns are read past.
    await c.api.del(
      token,
      `/api/v1/contacts/${(await rows(c.t, "select id from contacts where phone = '+15005550177'"))[0].id}`,
    );
    const back = await c.api.post(token, '/api/v1/contacts/import', { csv: res.body, install_id: inst.id });
    expect(back.statusCode, back.body).toBe(200);
    const done = await waitDone(token, back.json().import_id);
    expect(done.body).toMatchObject({ status: 'done', imported: 1, errors: [] });
    const [again] = await rows(
      c.t,
      "select * from contacts where phone = '+15005550177' and deleted_at is null",
    );
    expect(again).toMatchObject({ first_name: '=cmd()', fields: { plan: 'pro' }, install_id: inst.id });
  });
});

describe('what the chats module calls', () => {
  const ctxOf = () =>
    tenantContext(
      c.t.app.deps,
      { level: 'business', agencyId: c.seed.a.agency.id, businessId: c.seed.a.business.id },
      { kind: 'system', source: 'carrier', name: 'test' },
    );
  const ctxB = () =>
    tenantContext(
      c.t.app.deps,
      { level: 'business', agencyId: c.seed.b.agency.id, businessId: c.seed.b.business.id },
      { kind: 'system', source: 'carrier', name: 'test' },
    );

  it('creates one contact for concurrent first texts; opt-out by phone, block, last message time', async () => {
    const ctx = ctxOf();
    const made = await Promise.all(
      Array.from({ length: 5 }, () =>
        findOrCreateContactByPhone(ctx, { phone: '+15005550188', source: 'sms' }),
      ),
    );
    expect(new Set(made.map((m) => m.contact.id)).size).toBe(1);
    expect(made.filter((m) => m.created)).toHaveLength(1);
    const id = made[0]?.contact.id as number;
    expect((await contactForSend(ctx, id)).source).toBe('sms');
    await expect(contactForSend(ctxB(), id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const out = await setOptOut(ctx, { phone: '+15005550188', optedOut: true });
    expect(out.id).toBe(id);
    expect(out.opted_out_at).not.toBeNull();
    const again = await setOptOut(ctx, { contactId: id, optedOut: true });
    expect(again.opted_out_at).toEqual(out.opted_out_at);
    await setContactOptOut(ctx, { contactId: id, optedOut: false });
    expect((await contactForSend(ctx, id)).opted_out_at).toBeNull();
    // A STOP from a number that never texted makes an opted-out contact.
    const stranger = await setOptOut(ctx, { phone: '+15005550189', optedOut: true });
    expect(stranger.opted_out_at).not.toBeNull();

    expect((await setBlocked(ctx, { contactId: id, blocked: true })).blocked_at).not.toBeNull();
    await touchLastMessage(ctx, id, new Date('2026-01-02T00:00:00Z'));
    await touchContactConversation(ctx, { contactId: id, at: new Date('2026-01-01T00:00:00Z') });
    await findOrCreateContactByPhone(ctx, {
      phone: '+15005550188',
      lastMessageAt: new Date('2025-12-31T00:00:00Z'),
    });
    expect((await contactForSend(ctx, id)).last_message_at?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });
});
