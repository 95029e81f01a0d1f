// Rules that rested on one assertion each (issue 18), through the widget and the app's API: the monthly
// limits of calls and texts at the limit and one past it (also two callbacks at once for the last call), the
// blacklist at each of its levels on callbacks and on scheduled calls, and business hours inside, outside, at
// the edge minutes and in another time zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
beforeAll(async () => {
  h = await telephonyApp({ WIDGET_RATE_PER_INSTALL: '100000' });
});
afterAll(() => h?.close());

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const business = () => h.seed.a.business.id;
const widget = (key: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  h.t.app.inject({
    method,
    url: `/api/widget${url}`,
    headers: { 'x-install-key': key, origin: 'https://dental.example.test' },
    ...(payload ? { payload } : {}),
  });
const api = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  h.t.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
    ...(payload ? { payload } : {}),
  });
const callsUsed = async () =>
  (await rows('select number_of_calls from businesses where id = $1', [business()]))[0]?.number_of_calls;
let phoneN = 0;
const freshPhone = () => `+1415555${String(6000 + ++phoneN)}`;

describe('the monthly call limit', () => {
  it('allows the last call of the month, refuses the one past it, and says the widget is not open', async () => {
    const install = await h.install({ timeout: 20 });
    const used = (await callsUsed()) as number;
    await rows('update businesses set calls = $1 where id = $2', [used + 1, business()]);
    expect((await widget(install.key, 'GET', '/v1/config')).json().data.open_now).toBe(true);
    const last = await h.callback(install.key, { phone: freshPhone() });
    expect(last.statusCode, last.body).toBe(200);
    expect(await callsUsed()).toBe(used + 1);
    // At the limit: the widget is not open, and a callback is refused, counting nothing.
    expect((await widget(install.key, 'GET', '/v1/config')).json().data.open_now).toBe(false);
    const before = (await rows('select count(*)::int as n from calls'))[0]?.n;
    const past = await h.callback(install.key, { phone: freshPhone() });
    expect(past.statusCode).toBe(403);
    expect(past.json().message).toBe('This business has used all of its calls for this month.');
    expect(await callsUsed()).toBe(used + 1);
    expect((await rows('select count(*)::int as n from calls'))[0]?.n).toBe(before);
    await h.run(120_000);
    await rows('update businesses set calls = 0 where id = $1', [business()]);
  });

  it('two callbacks at once for the last call of the month: one is placed, the other refused', async () => {
    const install = await h.install({ timeout: 20 });
    const used = (await callsUsed()) as number;
    await rows('update businesses set calls = $1 where id = $2', [used + 1, business()]);
    const answers = await Promise.all([
      h.callback(install.key, { phone: freshPhone() }),
      h.callback(install.key, { phone: freshPhone() }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403]);
    expect(await callsUsed()).toBe(used + 1);
    await h.run(120_000);
    await rows('update businesses set calls = 0 where id = $1', [business()]);
  });
});

describe('the monthly text limit', () => {
  it('sends the last text of the month and refuses the one past it, counting nothing more', async () => {
    const install = await h.install();
    const res = await api('POST', `/v1/chats/installs/${install.id}/contacts`, {
      phone: freshPhone(),
      name: 'Lim',
    });
    expect(res.statusCode, res.body).toBe(200);
    const contact = res.json().data.id as number;
    await rows('update businesses set messages = 3, number_of_messages = 2 where id = $1', [business()]);
    const last = await api('POST', `/v1/chats/contacts/${contact}/messages`, { body: 'The last one' });
    expect(last.statusCode, last.body).toBe(200);
    const past = await api('POST', `/v1/chats/contacts/${contact}/messages`, { body: 'One too many' });
    expect(past.statusCode).toBe(422);
    expect(past.json().message).toMatch(/^You have reached your monthly text message limit/);
    const [b] = await rows('select number_of_messages from businesses where id = $1', [business()]);
    expect(b.number_of_messages).toBe(3);
    expect(await rows("select id from messages where body = 'One too many'")).toEqual([]);
    await rows('update businesses set messages = 0, number_of_messages = 0 where id = $1', [business()]);
  });
});

describe('the blacklist on callbacks and scheduled calls', () => {
  const list = (
    phone: string,
    level: 'platform' | 'agency' | 'business' | 'other business',
    kind = 'blacklist',
  ) => {
    const agency =
      level === 'platform' ? null : level === 'other business' ? h.seed.b.agency.id : h.seed.a.agency.id;
    const biz =
      level === 'business' ? h.seed.a.business.id : level === 'other business' ? h.seed.b.business.id : null;
    return rows('insert into phone_lists (list, agency_id, business_id, phone) values ($1, $2, $3, $4)', [
      kind,
      agency,
      biz,
      phone,
    ]);
  };
  const later = () => new Date(Date.now() + 2 * 3_600_000).toISOString();

  it('refuses a number blacklisted by the platform, the agency or the business; not one of another business', async () => {
    const install = await h.install({ timeout: 20 });
    const before = (await rows('select count(*)::int as n from calls'))[0]?.n;
    for (const level of ['platform', 'agency', 'business'] as const) {
      const phone = freshPhone();
      await list(phone, level);
      const res = await h.callback(install.key, { phone });
      expect(res.statusCode, `${level}: ${res.body}`).toBe(403);
      expect(res.json().message).toBe('This phone number cannot request a callback.');
      const booked = await widget(install.key, 'POST', '/v1/schedule', { phone, scheduled_at: later() });
      expect(booked.statusCode, `${level}: ${booked.body}`).toBe(403);
      const byStaff = await api('POST', '/v1/scheduled-calls', {
        install_id: install.id,
        phone,
        scheduled_at: later(),
      });
      expect(byStaff.statusCode, `${level}: ${byStaff.body}`).toBe(403);
    }
    expect((await rows('select count(*)::int as n from calls'))[0]?.n).toBe(before);

    // Another business's blacklist is not this business's; a whitelist entry overrides a blacklist.
    const foreign = freshPhone();
    await list(foreign, 'other business');
    const allowed = await widget(install.key, 'POST', '/v1/schedule', {
      phone: foreign,
      scheduled_at: later(),
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const forgiven = freshPhone();
    await list(forgiven, 'agency');
    await list(forgiven, 'business', 'whitelist');
    const ok = await api('POST', '/v1/scheduled-calls', {
      install_id: install.id,
      phone: forgiven,
      scheduled_at: later(),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

/** The instant `hh:mm` on the calendar day `days` from now in `zone`. */
function wallClock(zone: string, days: number, hh: number, mm: number): string {
  const day = new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: zone });
  for (let offset = -14 * 60; offset <= 14 * 60; offset += 15) {
    const sign = offset < 0 ? '-' : '+';
    const abs = Math.abs(offset);
    const iso = `${day}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    const back = new Date(iso).toLocaleString('en-GB', { timeZone: zone, hour12: false });
    if (
      back.endsWith(`${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00`) &&
      back.startsWith(day.split('-').reverse().join('/'))
    )
      return iso;
  }
  throw new Error(`no offset for ${zone}`);
}

describe('business hours', () => {
  const nineToFive = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      { open: true, from: '09:00AM', to: '05:00PM' },
    ]),
  );

  it('books inside the hours, from the opening minute to the last one; refuses the minute before and the closing minute', async () => {
    const install = await h.install({ timezone: 'America/New_York', hours: nineToFive });
    const book = (hh: number, mm: number) =>
      widget(install.key, 'POST', '/v1/schedule', {
        phone: freshPhone(),
        scheduled_at: wallClock('America/New_York', 3, hh, mm),
      });
    for (const [hh, mm, status] of [
      [9, 0, 200],
      [12, 30, 200],
      [16, 59, 200],
      [8, 59, 422],
      [17, 0, 422],
      [21, 0, 422],
    ] as const) {
      const res = await book(hh, mm);
      expect(res.statusCode, `${hh}:${mm} ${res.body}`).toBe(status);
      if (status === 422)
        expect(res.json().errors.scheduled_at[0]).toBe(
          'The business is closed at that time. Please choose another time.',
        );
    }
  });

  it("judges by the install's own time zone: the same instant is open in New York and closed in Tokyo", async () => {
    const ny = await h.install({ timezone: 'America/New_York', hours: nineToFive });
    const tokyo = await h.install({ timezone: 'Asia/Tokyo', hours: nineToFive });
    const instant = wallClock('America/New_York', 4, 10, 0);
    const inNy = await widget(ny.key, 'POST', '/v1/schedule', { phone: freshPhone(), scheduled_at: instant });
    expect(inNy.statusCode, inNy.body).toBe(200);
    const inTokyo = await widget(tokyo.key, 'POST', '/v1/schedule', {
      phone: freshPhone(),
      scheduled_at: instant,
    });
    expect(inTokyo.statusCode, inTokyo.body).toBe(422);
    const tokyoMorning = wallClock('Asia/Tokyo', 4, 10, 0);
    const ok = await widget(tokyo.key, 'POST', '/v1/schedule', {
      phone: freshPhone(),
      scheduled_at: tokyoMorning,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
