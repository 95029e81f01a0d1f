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
    expect422(
      await c.api.put(token, url, { settings: { timezone: 'Mars/Olympus_Mons' } }),
      'settings.timezone',
      'The timezone is invalid.',
    );
    expect422(
      await c.api.put(token, url, { settings: { hours: { monday: { from: '05:00PM', to: '08:00AM' } } } }),
      'settings.hours.monday.to',
      'The closing time must be after the opening time.',
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

describe('lists, the switch and the limit', () => {
  it('archives, restores and deletes: each list shows its installs', async () => {
    const token = await admin();
    const made = await create('Lists');
    const listed = async (status: string) =>
      ((await c.api.get(token, `${base}?status=${status}&perPage=100`)).json().data as { id: number }[]).map(
        (i) => i.id,
      );
    expect(await listed('active')).toContain(made.id);
    const archived = await c.api.put(token, `${base}/${made.id}/archive`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json()).toMatchObject({
      message: 'Install archived successfully.',
      data: { status: 'archived' },
    });
    expect(await listed('active')).not.toContain(made.id);
    expect(await listed('archived')).toContain(made.id);
    // Archiving twice is refused and changes nothing.
    const before = await snapshot(c.t.pool, TABLES);
    expect((await c.api.put(token, `${base}/${made.id}/archive`)).statusCode).toBe(422);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    expect((await c.api.put(token, `${base}/${made.id}/restore`)).json().data.status).toBe('active');
    const deleted = await c.api.del(token, `${base}/${made.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe('Install deleted successfully.');
    expect(await listed('deleted')).toContain(made.id);
    expect(await listed('active')).not.toContain(made.id);
    const [entry] = await rows(
      c.t,
      `select * from audit_logs where action = 'install.delete' order by id desc`,
    );
    expect(entry).toMatchObject({
      actor_id: c.seed.a.businessAdmin.id,
      business_id: c.seed.a.business.id,
      data: { install_id: made.id, name: 'Lists', from: 'active' },
    });
    // A second delete finds nothing more to remove.
    expect((await c.api.del(token, `${base}/${made.id}`)).statusCode).toBe(404);
    expect((await c.api.put(token, `${base}/${made.id}/restore`)).json().data.status).toBe('active');
    const kw = await c.api.get(token, `${base}?keyword=list`);
    expect(kw.json().data.map((i: { id: number }) => i.id)).toEqual([made.id]);
    expect(kw.json().meta).toMatchObject({ total: 1, page: 1 });
    const all = await c.api.get(token, `${base}/all`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toContainEqual({
      id: made.id,
      name: 'Lists',
      website: 'https://example.test',
      active: true,
      number: null,
      key: made.key,
      // Its hours, public as in the widget (the Sandbox Phones screen says when it is closed; ADR 051).
      hours: expect.objectContaining({ monday: expect.objectContaining({ open: true }) }),
      timezone: expect.any(String),
    });
    await c.api.del(token, `${base}/${made.id}`);
  });

  it('an install switched off stops answering its widget key (401); switched on, it answers again', async () => {
    const token = await admin();
    const made = await create('Switch');
    const config = () =>
      c.t.app.inject({ url: '/api/widget/v1/config', headers: { 'x-install-key': made.key } });
    const on = await config();
    expect(on.statusCode, on.body).toBe(200);
    // The public config never shows the staff phones.
    expect(on.json().data.settings.timeout).toBe(60);
    expect(on.json().data.settings.phoneAgents).toBeUndefined();
    const off = await c.api.post(token, `${base}/${made.id}/toggle-active`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({
      message: 'Install deactivated successfully.',
      data: { active: false },
    });
    expect((await config()).statusCode).toBe(401);
    await c.api.post(token, `${base}/${made.id}/toggle-active`, { active: true });
    expect((await config()).statusCode).toBe(200);
    await c.api.put(token, `${base}/${made.id}/archive`);
    expect((await config()).statusCode).toBe(401);
    const before = await snapshot(c.t.pool, TABLES);
    expect((await c.api.post(token, `${base}/${made.id}/toggle-active`, { active: 'yes' })).statusCode).toBe(
      422,
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    await c.api.del(token, `${base}/${made.id}`);
  });

  it('counts active and archived installs against the business limit and refuses one more', async () => {
    const token = await adminB();
    await c.t.pool.query('update businesses set number_of_installs = 2 where id = $1', [
      c.seed.b.business.id,
    ]);
    const stats = async () => (await c.api.post(token, '/api/v1/business/can-create-install')).json().data;
    expect(await stats()).toEqual({
      can_create: true,
      total_installs: 2,
      used_installs: 0,
      available_installs: 2,
    });
    const one = await create('One', {}, token);
    const two = await create('Two', {}, token);
    await c.api.put(token, `${base}/${two.id}/archive`);
    expect(await stats()).toEqual({
      can_create: false,
      total_installs: 2,
      used_installs: 2,
      available_installs: 0,
    });
    const before = await snapshot(c.t.pool, TABLES);
    const refused = await c.api.post(token, base, { name: 'Three', website: 'https://b.example' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({
      reason: 'installs.no_installs',
      message: 'No Installs Available. Please delete an install or upgrade to add more, or contact support.',
    });
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    // A deleted install frees its place; restoring it needs a free place again.
    await c.api.del(token, `${base}/${one.id}`);
    expect((await stats()).available_installs).toBe(1);
    const three = await create('Three', {}, token);
    const restore = await c.api.put(token, `${base}/${one.id}/restore`);
    expect(restore.statusCode, restore.body).toBe(422);
    expect(restore.json().reason).toBe('installs.no_installs');
    await c.api.del(token, `${base}/${three.id}`);
    expect((await c.api.put(token, `${base}/${one.id}/restore`)).statusCode).toBe(200);
  });

  it('gives the last place to one of two concurrent creates only', async () => {
    const token = await adminB();
    const { used_installs } = (await c.api.post(token, '/api/v1/business/can-create-install')).json().data;
    await c.t.pool.query('update businesses set number_of_installs = $2 where id = $1', [
      c.seed.b.business.id,
      used_installs + 1,
    ]);
    const both = await Promise.all(
      ['Race 1', 'Race 2'].map((name) => c.api.post(token, base, { name, website: 'https://race.example' })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    const [{ n }] = await rows(
      c.t,
      `select count(*)::int as n from installs where business_id = $1 and status <> 'deleted'`,
      [c.seed.b.business.id],
    );
    expect(n).toBe(used_installs + 1);
  });
});

describe('embed code, images, agents, telephony status', () => {
  it("gives the embed code with the install key on the agency's own host (scheme and port of the public URL)", async () => {
    const made = await create('Embed');
    const res = await c.api.get(await admin(), `${base}/${made.id}/embed-code`);
    expect(res.statusCode, res.body).toBe(200);
    const { protocol, port } = c.t.config.publicUrl;
    const base_ = `${protocol}//calls-a.example.com${port ? `:${port}` : ''}`;
    expect(res.json().data).toEqual({
      key: made.key,
      code: `<script src="${base_}/widget.js" data-key="${made.key}" async></script>`,
    });
    await c.api.del(await admin(), `${base}/${made.id}`);
  });

  it('uploads and removes the widget icon and the logo; refuses an SVG with a DOCTYPE', async () => {
    const token = await admin();
    const made = await create('Images');
    const png = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64')}`;
    for (const type of ['widgetIcon', 'logo']) {
      const up = await c.api.post(token, `${base}/${made.id}/${type}`, { data: png });
      expect(up.statusCode, up.body).toBe(200);
      const url = up.json().data.url as string;
      expect(url).toMatch(new RegExp(`^/uploads/installs/${made.id}/${type}\\.png\\?v=\\d+$`));
      const file = await c.t.app.inject({ url: url.split('?')[0] });
      expect(file.statusCode).toBe(200);
      const got = (await c.api.get(token, `${base}/${made.id}`)).json().data;
      expect(got[type === 'logo' ? 'logo' : 'widget_icon']).toBe(url);
      const del = await c.api.del(token, `${base}/${made.id}/${type}`);
      expect(del.statusCode, del.body).toBe(200);
      expect(
        (await c.api.get(token, `${base}/${made.id}`)).json().data[type === 'logo' ? 'logo' : 'widget_icon'],
      ).toBeNull();
    }
    const svg = `data:image/svg+xml;base64,${Buffer.from('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"></svg>').toString('base64')}`;
    const before = await snapshot(c.t.pool, TABLES);
    const refused = await c.api.post(token, `${base}/${made.id}/logo`, { data: svg });
    expect(refused.statusCode, refused.body).toBe(422);
    expect422(
      await c.api.post(token, `${base}/${made.id}/logo`, { data: 'data:text/html;base64,PGI+' }),
      'data',
      'The image must be a PNG, JPEG, GIF, WebP or SVG file.',
    );
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    await c.api.del(token, `${base}/${made.id}`);
  });

  it('refuses an SVG logo or widget icon that can run script, however it is spelled (parsed, not grepped)', async () => {
    const token = await admin();
    const made = await create('Svg attacks');
    const svg = (body: string) => `data:image/svg+xml;base64,${Buffer.from(body).toString('base64')}`;
    const NS = 'xmlns="http://www.w3.org/2000/svg"';
    const attacks = [
      `<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg:svg>`,
      `<svg ${NS}><x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script></svg>`,
      `<svg ${NS}><SCRIPT>alert(1)</SCRIPT></svg>`,
      `<svg ${NS} onload="alert(1)"/>`,
      `<svg ${NS}><rect x:onclick="alert(1)" xmlns:x="http://www.w3.org/2000/svg"/></svg>`,
      `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>`,
      `<svg ${NS}><a href=" jav&#x09;ascript:alert(1)"><text>x</text></a></svg>`,
      `<svg ${NS}><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/></foreignObject></svg>`,
      `<svg ${NS}><a href="#"><set attributeName="href" to="javascript:alert(1)"/></a></svg>`,
      `<svg ${NS}><use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/></svg>`,
      `<?xml-stylesheet href="https://evil.example/x.css"?><svg ${NS}/>`,
    ];
    const before = await snapshot(c.t.pool, TABLES);
    for (const type of ['logo', 'widgetIcon'])
      for (const body of attacks)
        expect422(
          await c.api.post(token, `${base}/${made.id}/${type}`, { data: svg(body) }),
          'data',
          'The SVG image must not contain scripts, event handlers, javascript: links or embedded content.',
        );
    // Not XML at all is not an image.
    const broken = await c.api.post(token, `${base}/${made.id}/logo`, { data: svg(`<svg ${NS}><g></svg>`) });
    expect(broken.statusCode).toBe(422);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    // A plain drawing, with a style, a gradient, links and text, is fine.
    const fine = svg(
      `<?xml version="1.0"?><svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><style>.a{fill:red}</style><defs><linearGradient id="g"/></defs><rect class="a" width="10" height="10" fill="url(#g)"/><use xlink:href="#g"/><a href="https://example.com"><text>Hi &amp; bye</text></a></svg>`,
    );
    const ok = await c.api.post(token, `${base}/${made.id}/logo`, { data: fine });
    expect(ok.statusCode, ok.body).toBe(200);
    await c.api.del(token, `${base}/${made.id}`);
  });

  it("lists the install's SMS agents and its telephony status", async () => {
    const token = await admin();
    const made = await create('Agents', { smsAgents: [c.seed.a.businessUser.id] });
    const agents = await c.api.get(token, `${base}/${made.id}/sms-agents`);
    expect(agents.statusCode, agents.body).toBe(200);
    expect(agents.json().data.map((u: { id: number }) => u.id)).toEqual([c.seed.a.businessUser.id]);
    const status = async () => (await c.api.get(token, `${base}/${made.id}/twilio-status`)).json();
    expect((await status()).data).toEqual({
      configured: false,
      number: null,
      caller_id: null,
      caller_id_verified: false,
      voice: false,
      sms: false,
    });
    await c.t.pool.query(`update agencies set twilio_config = '{"accountSid":"ACsandbox"}' where id = $1`, [
      c.seed.a.agency.id,
    ]);
    // A sid without a token cannot call anyone: not configured yet.
    expect((await status()).data.configured).toBe(false);
    await c.t.pool.query(
      `update agencies set twilio_config = '{"accountSid":"ACsandbox","authToken":"sealed"}' where id = $1`,
      [c.seed.a.agency.id],
    );
    await c.t.pool.query(
      `insert into numbers (agency_id, business_id, install_id, phone_number, kind) values ($1, $2, $3, '+15005550199', 'purchased')`,
      [c.seed.a.agency.id, c.seed.a.business.id, made.id],
    );
    expect((await status()).data).toMatchObject({
      configured: true,
      number: '+15005550199',
      voice: true,
      sms: true,
    });
    expect((await c.api.get(token, `${base}/${made.id}`)).json().data.number).toBe('+15005550199');
    await c.t.pool.query(`update numbers set released_at = now() where install_id = $1`, [made.id]);
    expect((await status()).data).toMatchObject({ configured: true, number: null, voice: false });
    await c.api.del(token, `${base}/${made.id}`);
  });
});

/** Every call of the installs API on one install, with a body that would pass validation. */
const calls = (id: number) =>
  [
    ['GET', '/v1/installs', undefined],
    ['GET', '/v1/installs/all', undefined],
    ['POST', '/v1/business/can-create-install', {}],
    ['GET', `/v1/installs/${id}`, undefined],
    ['POST', '/v1/installs', { name: 'Nope', website: 'https://nope.example' }],
    ['PUT', `/v1/installs/${id}`, { name: 'Nope' }],
    ['PUT', `/v1/installs/${id}/setting`, { settings: { timeout: 30 } }],
    ['PUT', `/v1/installs/${id}/archive`, {}],
    ['PUT', `/v1/installs/${id}/restore`, {}],
    ['DELETE', `/v1/installs/${id}`, undefined],
    ['POST', `/v1/installs/${id}/toggle-active`, { active: false }],
    ['GET', `/v1/installs/${id}/embed-code`, undefined],
    ['POST', `/v1/installs/${id}/widgetIcon`, { data: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['DELETE', `/v1/installs/${id}/widgetIcon`, undefined],
    ['POST', `/v1/installs/${id}/logo`, { data: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['DELETE', `/v1/installs/${id}/logo`, undefined],
    ['GET', `/v1/installs/${id}/sms-agents`, undefined],
    ['GET', `/v1/installs/${id}/twilio-status`, undefined],
  ] as const;

/** The picker lists every business user reads (installs.pick, ADR 047): the inbox, calls, contacts screens. */
const isPicker = (url: string) => url === '/v1/installs/all' || url.endsWith('/sms-agents');

describe('who may use the installs API', () => {
  it('refuses agency users everything (403), and changes nothing', async () => {
    const made = await create('Access');
    const denied = [await c.token(c.seed.a.agencyAdmin.email), await c.token(c.seed.a.agencyUser.email)];
    for (const token of denied) {
      for (const [method, url, payload] of calls(made.id)) {
        const before = await snapshot(c.t.pool, TABLES);
        const res = await c.call(token, method, url, payload);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
        expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
      }
    }
    await c.api.del(await admin(), `${base}/${made.id}`);
  });

  it('lets a SalesUser read the picker lists only: every other call is a 403 and changes nothing', async () => {
    await c.t.pool.query('update businesses set number_of_installs = 10');
    const made = await create('Picks');
    const sales = await c.token(c.seed.a.businessUser.email); // SalesUser
    for (const [method, url, payload] of calls(made.id)) {
      const before = await snapshot(c.t.pool, TABLES);
      const res = await c.call(sales, method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(isPicker(url) ? 200 : 403);
      expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
    }
    const all = await c.api.get(sales, `${base}/all`);
    expect((all.json().data as { id: number }[]).map((i) => i.id)).toContain(made.id);
    // Another business's install stays another's: a 404 on its agents.
    const theirs = await create('Not yours', {}, await adminB());
    expect((await c.api.get(sales, `${base}/${theirs.id}/sms-agents`)).statusCode).toBe(404);
    await c.api.del(await admin(), `${base}/${made.id}`);
    await c.api.del(await adminB(), `${base}/${theirs.id}`);
  });

  it('lets AdminSupport, MarketingUser and a custom type with installs_page in; not one without it', async () => {
    const { addBusinessUser } = await import('../../../test/helpers.ts');
    const b = c.seed.a.business.id;
    const allowed = [
      await addBusinessUser(c.t, b, 'support@inst.test', '1'),
      await addBusinessUser(c.t, b, 'marketing@inst.test', '2'),
      await addBusinessUser(c.t, b, 'custom@inst.test', '4', ['installs_page']),
    ];
    for (const u of allowed) {
      const res = await c.api.get(await c.token(u.email), `${base}/all`);
      expect(res.statusCode, `${u.email}: ${res.body}`).toBe(200);
    }
    // A custom type without installs_page: the installs screen's list is refused, the picker list is not.
    const other = await c.token(
      (await addBusinessUser(c.t, b, 'custom2@inst.test', '4', ['contacts_page'])).email,
    );
    expect((await c.api.get(other, base)).statusCode).toBe(403);
    expect((await c.api.get(other, `${base}/all`)).statusCode).toBe(200);
  });

  it("an agency impersonating the business admin uses the business's installs", async () => {
    const agency = await c.token(c.seed.a.agencyAdmin.email);
    const imp = await c.api.post(agency, `/api/v1/impersonate/${c.seed.a.businessAdmin.id}`);
    expect(imp.statusCode, imp.body).toBe(200);
    const res = await c.api.get(imp.json().access_token, `${base}/all`);
    expect(res.statusCode, res.body).toBe(200);
  });

  it("answers 404 for another business's install on every call by id, and changes nothing", async () => {
    await c.t.pool.query('update businesses set number_of_installs = 10');
    const mine = await create('Mine');
    const theirs = await create('Theirs', {}, await adminB());
    const token = await admin();
    for (const [method, url, payload] of calls(theirs.id)) {
      if (!url.includes(String(theirs.id))) continue;
      const own = url.replace(String(theirs.id), String(mine.id));
      await expectCrossTenant404(c.t, {
        token,
        method,
        url: `/api${url}`,
        ...(payload !== undefined ? { payload } : {}),
        control: { method: 'GET', url: `/api/v1/installs/${mine.id}` },
        tables: TABLES,
      });
      expect(own).toContain(String(mine.id));
    }
    const list = await c.api.get(token, `${base}?perPage=100`);
    expect(list.json().data.map((i: { id: number }) => i.id)).not.toContain(theirs.id);
    await c.api.del(token, `${base}/${mine.id}`);
    await c.api.del(await adminB(), `${base}/${theirs.id}`);
  });
});

describe('the install wizard (open_install_wizard on the profile)', () => {
  it('is true for a business without an install, the install id while its wizard is unfinished, then false', async () => {
    const { addBusinessUser } = await import('../../../test/helpers.ts');
    const [biz] = await rows(
      c.t,
      `insert into businesses (agency_id, name, number_of_installs) values ($1, 'Wizard Co', 2) returning id`,
      [c.seed.a.agency.id],
    );
    const owner = await addBusinessUser(c.t, biz.id, 'owner@wizard.test', '1');
    const sales = await addBusinessUser(c.t, biz.id, 'sales@wizard.test', '3');
    const token = await c.token(owner.email);
    const wizard = async (t = token) =>
      (await c.api.get(t, '/api/v1/profile')).json().data.user.open_install_wizard;
    expect(await wizard()).toBe(true);
    // A user who may not create installs is never sent there.
    expect(await wizard(await c.token(sales.email))).toBe(false);
    const made = await create('Wizard', { wizard_step: 1 }, token);
    expect(await wizard()).toBe(made.id);
    await c.api.put(token, `${base}/${made.id}/setting`, { settings: { wizard_step: 3 } });
    expect(await wizard()).toBe(made.id);
    await c.api.put(token, `${base}/${made.id}/setting`, { settings: { wizard_step: null } });
    expect(await wizard()).toBe(false);
    await c.api.del(token, `${base}/${made.id}`);
    expect(await wizard()).toBe(true);
  });
});

it('answers can-create-install without a body too', async () => {
  const res = await c.t.app.inject({
    method: 'POST',
    url: '/api/v1/business/can-create-install',
    headers: { authorization: `Bearer ${await admin()}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data).toHaveProperty('can_create');
});
