// Bad input never answers 5xx (issue 8): NUL bytes, which PostgreSQL refuses in text, and ids beyond its
// int4 range, on every documented route of the API and on the widget and webhook trees. Also the other
// input holes of issue 8: formulas in CSV exports, SVG uploads with a DTD, the popup's plan, no-store.
import { can, ROLE_KEYS, subjectOf, type TRoleKey } from '@stn/contracts/capabilities';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteInfo } from '../src/platform/http/catalogue.ts';
import { twilioSignature } from '../src/platform/webhooks/tree.ts';
import { bearer, expect422, sessionsForAllRoles, snapshot, useSuite } from './helpers.ts';

const NUL = 'a\u0000b';
const NUL_MESSAGE = /must not contain a NUL character/;
const HUGE_IDS = ['2147483648', '99999999999999999999'];

const c = useSuite({
  plug: (p) =>
    p.webhooks.route({
      method: 'POST',
      url: '/test/bad-input/sms',
      provider: 'twilio',
      async handler(request, reply) {
        // Writes what it was sent, as a real carrier webhook records its event.
        await c.t.pool.query(`insert into audit_logs (action, data) values ('test.webhook', $1)`, [
          request.body,
        ]);
        return reply.type('text/xml').send('<Response/>');
      },
    }),
});
let tokens: Record<TRoleKey, string>;
let routes: RouteInfo[];

beforeAll(async () => {
  tokens = await sessionsForAllRoles(c.t, c.seed);
  await c.t.pool.query('update businesses set dep_enabled = true where id = $1', [c.seed.a.business.id]);
  await c.t.pool.query('update agencies set department_enabled = true where id = $1', [c.seed.a.agency.id]);
  await c.t.pool.query(
    `insert into installs (agency_id, business_id, key, name) values ($1, $2, 'bad-input-key-0123456789', 'Site')`,
    [c.seed.a.agency.id, c.seed.a.business.id],
  );
  // Calls that end the caller's own session go last, so that they cannot hide the others behind a 401.
  const last = (r: RouteInfo) => (/logout|impersonate/.test(r.url) ? 1 : 0);
  routes = c.t.app.routeCatalogue.filter((r) => r.url.startsWith('/api/v')).sort((x, y) => last(x) - last(y));
});

/** A role the route lets in, so that the answer is about the input, not about access (Admin first). */
function tokenFor(r: RouteInfo): string | null {
  if (r.public) return null;
  const capability = r.capability;
  if (!capability) return tokens.Admin;
  const role = (['Admin', ...ROLE_KEYS] as TRoleKey[]).find((k) => can(subjectOf(k), capability));
  if (!role) throw new Error(`no role may call ${r.method} ${r.url}`);
  return tokens[role];
}

const isId = (name: string) => /^(id|ids|.+_id|.+_ids)$/.test(name);
const PARAM_VALUES: Record<string, string> = { key: 'training', type: 'headerLogo', domain: 'nowhere.test' };
const pathOf = (url: string, id: string) =>
  url.replace(/:(\w+)/g, (_m, name: string) => (isId(name) ? id : (PARAM_VALUES[name] ?? '999999')));

// Every name a string reaches the database under somewhere, plus an unknown one, nested ones and a list.
const STRING_FIELDS = [
  'name',
  'first_name',
  'last_name',
  'keyword',
  'search',
  'content',
  'host',
  'title',
  'email',
  'description',
  'phone',
  'password',
  'subdomain',
  'domain',
  'message',
  'subject',
  'token',
  'not_a_field',
];
const nulQuery = STRING_FIELDS.map((f) => `${f}=a%00b`).join('&');
const nulBody = {
  ...Object.fromEntries(STRING_FIELDS.map((f) => [f, NUL])),
  settings: { content: NUL },
  phones: [NUL],
};

describe('bad input on every documented API route', () => {
  it('an id of 2^31 or more in a path is not found (404), never a 5xx', async () => {
    const wrong: string[] = [];
    let tried = 0;
    for (const r of routes) {
      if (!/:(id|ids|\w+_id)\b/.test(r.url)) continue;
      const token = tokenFor(r);
      for (const id of HUGE_IDS) {
        tried++;
        const res = await c.t.app.inject({
          method: r.method as 'GET',
          url: pathOf(r.url, id),
          headers: token ? bearer(token) : {},
          ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
        });
        if (res.statusCode !== 404 || res.json().success !== false)
          wrong.push(`${r.method} ${r.url} id ${id}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(tried).toBeGreaterThan(60);
    expect(wrong).toEqual([]);
  }, 300_000);

  it('a NUL byte in any query or body string answers 422 naming the field, never a 5xx', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const token = tokenFor(r);
      const res = await c.t.app.inject({
        method: r.method as 'GET',
        url: `${pathOf(r.url, '999999')}?${nulQuery}`,
        headers: token ? bearer(token) : {},
        ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: nulBody }),
      });
      const body = res.statusCode < 500 ? res.json() : {};
      const fieldMessages = Object.values(body.errors ?? {}).flat() as string[];
      if (res.statusCode !== 422 || !fieldMessages.some((m) => NUL_MESSAGE.test(m)))
        wrong.push(`${r.method} ${r.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(routes.length).toBeGreaterThan(80);
    expect(wrong).toEqual([]);
  }, 300_000);

  it('names the field in the caller language, in a path parameter (the site-data host) too', async () => {
    const res = await c.t.app.inject({
      method: 'GET',
      url: '/api/v1/settings/site-data/nowhere%00.test',
      headers: { 'accept-language': 'es' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.domain[0]).toMatch(/^El campo .+ no debe contener un carácter NUL\.$/);
    const put = await c.call(tokens.Admin, 'PUT', `/v1/agencies/${c.seed.a.agency.id}`, {
      name: 'Fine',
      nested: { deeper: [{ content: NUL }] },
    });
    expect422(put, 'nested.deeper.0.content', 'The content field must not contain a NUL character.');
  });

  it('an id of 2^31 or more in a query or a body is a 422 on that field', async () => {
    const q = await c.call(tokens.Admin, 'GET', '/v1/agencies/export-users?agency_id=2147483648');
    expect422(q, 'agency_id', 'The agency id is invalid.');
    const before = await snapshot(c.t.pool, ['agencies']);
    const b = await c.call(tokens.Admin, 'PUT', `/v1/agencies/${c.seed.a.agency.id}/popup-payment`, {
      plan_id: 2 ** 31,
    });
    expect422(b, 'plan_id', 'The plan id is invalid.');
    expect(await snapshot(c.t.pool, ['agencies'])).toEqual(before);
  });
});

describe('bad input on the widget and webhook trees', () => {
  it('a NUL byte in the install key is a wrong key (401), in another parameter a 422', async () => {
    const wrongKey = await c.t.app.inject({ url: '/api/widget/v1/config?key=a%00b' });
    expect(wrongKey.statusCode, wrongKey.body).toBe(401);
    const param = await c.t.app.inject({
      url: '/api/widget/v1/config?lang=a%00b',
      headers: { 'x-install-key': 'bad-input-key-0123456789' },
    });
    expect(param.statusCode, param.body).toBe(422);
    expect(param.json().errors.lang[0]).toMatch(NUL_MESSAGE);
  });

  it('a signed carrier webhook with a NUL byte is refused with 400 and records nothing', async () => {
    // Agency Setup checks the account with the carrier: a sandbox account passes.
    const { sid: SID, authToken: AUTH_TOKEN } = c.t.app.deps.carrier.createSandboxAccount('Agency A');
    const res = await c.call(tokens.SuperAdmin, 'PUT', `/v1/agencies/${c.seed.a.agency.id}/twilio-config`, {
      accountSid: SID,
      authToken: AUTH_TOKEN,
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = '/webhooks/test/bad-input/sms';
    const send = (params: Record<string, string>) =>
      c.t.app.inject({
        method: 'POST',
        url,
        headers: {
          host: 'hooks.example.test',
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(AUTH_TOKEN, `http://hooks.example.test${url}`, params),
        },
        payload: new URLSearchParams(params).toString(),
      });
    const ok = await send({ AccountSid: SID, Body: 'fine' });
    expect(ok.statusCode, ok.body).toBe(200);
    const before = await snapshot(c.t.pool, ['audit_logs']);
    const bad = await send({ AccountSid: SID, Body: NUL });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(await snapshot(c.t.pool, ['audit_logs'])).toEqual(before);
  });
});

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return out;
}

// What a spreadsheet runs as a formula: a cell, or a part of it split on ; or , that starts with these.
const FORMULAS = ['=HYPERLINK("http://x")', '+1', '-1', '@SUM(1)', '\tx', '\rx', 'a;=1', 'b,=1'];
const NEUTRALISED = ['\'=HYPERLINK("http://x")', "'+1", "'-1", "'@SUM(1)", "'\tx", "'\rx", "a;'=1", "b,'=1"];
const runnable = (cell: string) => cell.split(/[;,]/).some((part) => /^ *[=+\-@\t\r]/.test(part));

describe('CSV exports', () => {
  it('neutralise every cell a spreadsheet would run as a formula, in every export', async () => {
    const agencyId = c.seed.a.agency.id;
    for (const name of FORMULAS)
      await c.t.pool.query('insert into businesses (agency_id, name) values ($1, $2)', [agencyId, name]);
    const users = await c.t.pool.query('select id from users where agency_id = $1 order by id', [agencyId]);
    expect(users.rows.length).toBeGreaterThanOrEqual(4);
    for (const [i, u] of users.rows.entries())
      await c.t.pool.query('update users set first_name = $2, last_name = $3 where id = $1', [
        u.id,
        FORMULAS[i % FORMULAS.length],
        FORMULAS[(i + 4) % FORMULAS.length],
      ]);

    for (const [url, column] of [
      ['export-businesses', 'name'],
      ['export-users', 'first_name'],
    ] as const) {
      const res = await c.call(tokens.Admin, 'GET', `/v1/agencies/${url}?agency_id=${agencyId}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const [header, ...rows] = parseCsv(res.body);
      const col = header?.indexOf(column) ?? -1;
      expect(col).toBeGreaterThanOrEqual(0);
      const cells = rows.flat();
      expect(cells.filter(runnable), url).toEqual([]);
      const values = rows.map((r) => r[col]);
      if (url === 'export-businesses') for (const v of NEUTRALISED) expect(values, url).toContain(v);
      else expect(values, url).toEqual(users.rows.map((_u, i) => NEUTRALISED[i % NEUTRALISED.length]));
    }
  });
});

describe('SVG uploads', () => {
  const svgUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  const PLAIN =
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

  it('refuse an SVG with a DTD or entities with 422 and say why; a plain SVG is taken', async () => {
    const url = `/v1/agencies/image/${c.seed.a.agency.id}`;
    const ok = await c.call(tokens.Admin, 'POST', url, { type: 'headerLogo', data: svgUrl(PLAIN) });
    expect(ok.statusCode, ok.body).toBe(200);
    for (const svg of [
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol">]>${PLAIN.replace('<rect', '&lol;<rect')}`,
      `<!doctype svg SYSTEM "http://example.test/x.dtd">${PLAIN}`,
      `<svg xmlns="http://www.w3.org/2000/svg"><!ENTITY x SYSTEM "file:///etc/passwd"></svg>`,
    ]) {
      const before = await snapshot(c.t.pool, ['agencies']);
      const res = await c.call(tokens.Admin, 'POST', url, { type: 'headerLogo', data: svgUrl(svg) });
      expect422(res, 'data', 'The SVG image must not contain a DOCTYPE or entity declarations.');
      expect(await snapshot(c.t.pool, ['agencies'])).toEqual(before);
    }
  });
});

describe('PUT /v1/agencies/{id}/popup-payment', () => {
  it("takes only the agency's own plan and only known keys; anything else is a 422 that changes nothing", async () => {
    const plan = async (agencyId: number) =>
      (
        await c.t.pool.query(`insert into plans (agency_id, name) values ($1, 'Gold') returning id`, [
          agencyId,
        ])
      ).rows[0].id as number;
    const own = await plan(c.seed.a.agency.id);
    const other = await plan(c.seed.b.agency.id);
    const url = `/v1/agencies/${c.seed.a.agency.id}/popup-payment`;
    for (const token of [tokens.Admin, tokens.AgencyAdmin]) {
      const before = await snapshot(c.t.pool, ['agencies']);
      expect422(
        await c.call(token, 'PUT', url, { title: 'Buy', plan_id: other }),
        'plan_id',
        'The selected plan id is invalid.',
      );
      expect422(
        await c.call(token, 'PUT', url, { title: 'Buy', is_admin: true }),
        'is_admin',
        'The is admin field is not allowed.',
      );
      expect(await snapshot(c.t.pool, ['agencies'])).toEqual(before);
    }
    const ok = await c.call(tokens.AgencyAdmin, 'PUT', url, { title: 'Buy', plan_id: own, enabled: true });
    expect(ok.statusCode, ok.body).toBe(200);
    const cleared = await c.call(tokens.AgencyAdmin, 'PUT', url, { plan_id: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const [row] = (await c.t.pool.query('select settings from agencies where id = $1', [c.seed.a.agency.id]))
      .rows;
    expect(row.settings.popup).toMatchObject({ title: 'Buy', enabled: true, plan_id: null });
  });
});

describe('Cache-Control: no-store', () => {
  it('is on every API answer (tokens, personal data, exports, lists, errors); the widget config keeps its own', async () => {
    const signIn = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: c.seed.a.agencyAdmin.email, password: 'correct-horse-1' },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().access_token).toBeTruthy();
    const answers = [
      signIn,
      await c.call(tokens.Admin, 'GET', '/v1/auth/check'),
      await c.call(tokens.Admin, 'GET', '/v1/profile'),
      await c.call(tokens.Admin, 'GET', '/v1/agencies'),
      await c.call(tokens.Admin, 'GET', `/v1/agencies/export-users?agency_id=${c.seed.a.agency.id}`),
      await c.call(tokens.SuperAdmin, 'POST', `/v1/impersonate/${c.seed.a.businessAdmin.id}`),
      await c.t.app.inject({ url: '/api/v1/profile' }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(res.headers['cache-control'], `${res.statusCode} ${res.body.slice(0, 80)}`).toBe('no-store');
    }
    const widget = await c.t.app.inject({
      url: '/api/widget/v1/config',
      headers: { 'x-install-key': 'bad-input-key-0123456789' },
    });
    expect(widget.statusCode, widget.body).toBe(200);
    expect(widget.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
  });
});
