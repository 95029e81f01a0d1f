// The route trees own their hooks (ADR 015, ADR 055): the bearer token is looked at by the /api tree
// alone, so a widget call is a visitor's whatever Authorization header it carries, and /api/v1 still
// answers 401 without a token; the widget tree answers a visitor only through each route's response
// schema, so an internal field of a service's answer never reaches a page.
import { translate } from '@stn/contracts/i18n';
import { widgetAnswer, ZWidgetConfig, ZWidgetMessage, ZWidgetSlots } from '@stn/contracts/widget';
import { beforeAll, describe, expect, it } from 'vitest';
import { widgetOf } from '../src/platform/widget/tree.ts';
import { bearer, useSuite } from './helpers.ts';

const KEY = 'install-key-of-route-trees-0123456789';
const SITE = 'https://dental-trees.example.test';
const MESSAGE = {
  id: 7,
  direction: 'in',
  body: 'Hello',
  media: [],
  status: 'received',
  created_at: '2026-01-01T00:00:00.000Z',
};

const c = useSuite({
  env: { WIDGET_RATE_PER_ADDRESS: '1000', WIDGET_RATE_PER_INSTALL: '1000' },
  // Two citizens of the widget tree whose answers do not match the message schema they declare, as a
  // service's answer that grew an internal field, or went wrong, would not.
  plug: (p) =>
    p.widget.routes.push(async (tree) => {
      const schema = { response: { 200: widgetAnswer(ZWidgetMessage) } };
      tree.get('/v1/test-extra-fields', { schema }, async (request) => ({
        success: true,
        data: { ...MESSAGE, contact_id: 42, thread: '0123456789abcdef', phone: '+14155550100' },
        install: widgetOf(request).install,
      }));
      tree.get('/v1/test-wrong-shape', { schema }, async () => ({
        success: true,
        data: { ...MESSAGE, id: 'seven', phone: '+14155550100' },
      }));
    }),
});

beforeAll(async () => {
  await c.t.pool.query(
    `insert into installs (agency_id, business_id, key, name, settings) values ($1, $2, $3, 'Trees', $4)`,
    [c.seed.a.agency.id, c.seed.a.business.id, KEY, { greeting: 'Hi there' }],
  );
});

const widget = (url: string, headers: Record<string, string> = {}) =>
  c.t.app.inject({ method: 'GET', url: `/api/widget${url}`, headers: { origin: SITE, ...headers } });

describe('the /api bearer hook', () => {
  it('is not run on widget calls: a garbage or a real token changes nothing there', async () => {
    const garbage = await widget('/v1/config', { 'x-install-key': KEY, authorization: 'Bearer x' });
    expect(garbage.statusCode, garbage.body).toBe(200);
    expect(garbage.json().data.id).toEqual(expect.any(Number));

    // A user who chose Spanish in their profile: the /api tree answers them in Spanish whatever the browser
    // asks; on the widget tree their token is never looked at, so the browser's language holds.
    await c.t.pool.query(`update users set settings = settings || '{"language":"es"}' where id = $1`, [
      c.seed.a.businessAdmin.id,
    ]);
    const token = await c.token(c.seed.a.businessAdmin.email);
    const headers = { ...bearer(token), 'accept-language': 'en' };
    const visitor = await widget('/v1/config', { ...headers, 'x-install-key': 'no-such-key' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().message).toBe(translate('widget.invalid_key', 'en'));
    const api = await c.t.app.inject({ method: 'GET', url: '/api/v1/agencies', headers });
    expect(api.statusCode).toBe(403);
    expect(api.json().message).toBe(translate('auth.forbidden', 'es'));
  });

  it('still guards /api/v1: 401 without a token or with a garbage one, the answer with a real one', async () => {
    for (const headers of [{}, { authorization: 'Bearer x' }, { authorization: 'Basic eDp5' }]) {
      const res = await c.t.app.inject({ method: 'GET', url: '/api/v1/profile', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    }
    const token = await c.token(c.seed.a.agencyAdmin.email);
    const res = await c.t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('widget answers', () => {
  it('send only what the route schema names: internal fields stay on the server', async () => {
    const res = await widget('/v1/test-extra-fields', { 'x-install-key': KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: MESSAGE });
    for (const internal of ['contact_id', 'thread', 'phone', '+14155550100', 'install', KEY])
      expect(res.body).not.toContain(internal);
  });

  it('that do not match the schema are refused (500), never sent as they are', async () => {
    const res = await widget('/v1/test-wrong-shape', { 'x-install-key': KEY });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, code: 'SERVER' });
    expect(res.body).not.toContain('seven');
    expect(res.body).not.toContain('+14155550100');
  });

  it("of the widget's own routes carry exactly the contract's fields", async () => {
    const config = await widget('/v1/config', { 'x-install-key': KEY });
    expect(Object.keys(config.json().data).sort()).toEqual(Object.keys(ZWidgetConfig.shape).sort());
    const slots = await widget('/v1/slots?days=2', { 'x-install-key': KEY });
    expect(Object.keys(slots.json().data).sort()).toEqual(Object.keys(ZWidgetSlots.shape).sort());
  });

  it('are documented for every widget route with a 200 schema', async () => {
    const served = c.t.app.routeCatalogue
      .filter((r) => r.url.startsWith('/api/widget/v1/') && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${r.url}`);
    // The widget's API: config, callback, slots, schedule, text, verify, code, reply, conversation, events,
    // and the lead forms' (issue 21).
    expect(served).toEqual(
      expect.arrayContaining([
        'GET /api/widget/v1/config',
        'POST /api/widget/v1/callback',
        'GET /api/widget/v1/slots',
        'POST /api/widget/v1/schedule',
        'POST /api/widget/v1/text',
        'POST /api/widget/v1/text/verify',
        'POST /api/widget/v1/text/code',
        'POST /api/widget/v1/text/reply',
        'GET /api/widget/v1/conversation',
        'GET /api/widget/v1/events',
        'GET /api/widget/v1/lead-form',
        'GET /api/widget/v1/forms/:id',
        'POST /api/widget/v1/lead',
      ]),
    );
    const doc = (await c.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, { content?: object }> }>>;
    };
    for (const route of served) {
      const [method = '', path = ''] = route.split(' ');
      // The document writes a path's parameters as OpenAPI does ({id}), the router as Fastify does (:id).
      const documented = path.replace(/:(\w+)/g, '{$1}');
      const content = doc.paths[documented]?.[method.toLowerCase()]?.responses?.['200']?.content ?? {};
      expect(Object.values(content)[0], `${route} 200 schema`).toMatchObject({ schema: expect.anything() });
    }
  });
});
