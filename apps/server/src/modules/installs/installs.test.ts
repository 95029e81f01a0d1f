import { beforeAll, describe, expect, it } from 'vitest';
import { expect422, expectCrossTenant404, rows, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite();
const base = '/api/v1/installs';
const TABLES = ['installs'];
const admin = () => c.token(c.seed.a.businessAdmin.email);
const adminB = () => c.token(c.seed.b.businessAdmin.email);

beforeAll(async () => {
  await c.t.pool.query('update businesses set number_of_installs = 3');
});

async function create(name: string, settings: object = {}, token?: string) {
  const res = await c.api.post(token ?? (await admin()), base, {
    name,
    website: 'https://example.test',
    settings,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; key: string; settings: Record<string, unknown> };
}

describe('creating and editing installs', () => {
  it('creates an install with the defaults of spec 000 §9 and a random key', async () => {
    const res = await c.api.post(await admin(), base, { name: 'Main site', website: 'https://a.example' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Install created successfully.');
    const data = body.data;
    expect(data).toMatchObject({
      name: 'Main site',
      website: 'https://a.example',
      status: 'active',
      active: true,
    });
    expect(data.key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const s = data.settings;
    expect(s).toMatchObject({
      timeout: 60,
      callback_seconds: 14,
      press_number: 1,
      colors: { primary: '#2991D1' },
      styling: { MaxWidth: 500, Padding: 20 },
    });
    for (const day of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'])
      expect(s.hours[day]).toEqual({ open: true, from: '08:00AM', to: '05:00PM' });
    expect(s.hours.saturday.open).toBe(false);
    expect(s.hours.sunday.open).toBe(false);
    const [row] = await rows(c.t, 'select * from installs where id = $1', [data.id]);
    expect(row).toMatchObject({
      business_id: c.seed.a.business.id,
      agency_id: c.seed.a.agency.id,
      key: data.key,
    });
    const other = await create('Second');
    expect(other.key).not.toBe(data.key);
    await c.api.del(await admin(), `${base}/${other.id}`);
  });

  it('deep-merges an edit onto the current settings and keeps the rest', async () => {
    const made = await create('Merge', { timeout: 30, colors: { text: '#000000' } });
    expect(made.settings).toMatchObject({ timeout: 30, colors: { primary: '#2991D1', text: '#000000' } });
    const res = await c.api.put(await admin(), `${base}/${made.id}`, {
      name: 'Merged',
      settings: { hours: { saturday: { open: true } }, colors: { primary: '#112233' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().data.settings;
    expect(res.json().data.name).toBe('Merged');
    expect(s.timeout).toBe(30);
    expect(s.colors).toEqual({ primary: '#112233', text: '#000000' });
    expect(s.hours.saturday).toEqual({ open: true, from: '08:00AM', to: '05:00PM' });
    const setting = await c.api.put(await admin(), `${base}/${made.id}/setting`, {
      settings: { phoneAgents: [{ name: 'Desk', phone: '(500) 555-0101' }] },
    });
    expect(setting.statusCode, setting.body).toBe(200);
    expect(setting.json().data.settings.phoneAgents).toEqual([
      { user_id: null, name: 'Desk', phone: '+15005550101' },
    ]);
    expect(setting.json().data.settings.timeout).toBe(30);
    const got = await c.api.get(await admin(), `${base}/${made.id}`);
    expect(got.json().data.settings.phoneAgents[0].phone).toBe('+15005550101');
    await c.api.del(await admin(), `${base}/${made.id}`);
  });

  it('refuses bad settings with a 422 and changes nothing', async () => {
    const made = await create('Bad input');
    const token = await admin();
    const before = await snapshot(c.t.pool, TABLES);
    const url = `${base}/${made.id}`;
    expect422(
      await c.api.put(token, url, { settings: { colors: { primary: 'blue' } } }),
      'settings.colors.primary',
      'The primary is invalid.',
    );
    expect422(
      await c.api.put(token, url, { settings: { timeout: 5 } }),
      'settings.timeout',
      'The timeout is invalid.',
    );
    const weekday = await c.api.put(token, url, { settings: { hours: { funday: { open: true } } } });
    expect(weekday.statusCode, weekday.body).toBe(422);
    expect(Object.keys(weekday.json().errors)).toEqual(['settings.hours.funday']);
    expect422(
      await c.api.put(token, `${url}/setting`, { settings: { phoneAgents: [{ name: 'X', phone: 'abc' }] } }),
      'settings.phoneAgents.0.phone',
      'Wrong phone number format!!',
    );
    expect422(
      await c.api.put(token, url, {
        settings: { phoneAgents: [{ user_id: c.seed.b.businessAdmin.id, name: 'X', phone: '+15005550101' }] },
      }),
      'settings.phoneAgents.0.user_id',
      'Each agent must be a user of this business.',
    );
    expect422(
      await c.api.put(token, url, { settings: { smsAgents: [c.seed.b.businessUser.id] } }),
      'settings.smsAgents',
      'Each agent must be a user of this business.',
    );
    expect422(
      await c.api.put(token, url, { settings: { departments: [999999] } }),
      'settings.departments',
      'Each department must be a department of this business.',
    );
    expect422(
      await c.api.post(token, base, { name: '', website: 'x' }),
      'name',
      'The name field is required',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    await c.api.del(token, url);
  });
});
