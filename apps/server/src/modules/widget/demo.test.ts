import { starterLeadForm } from '@stn/contracts/leadforms';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers.ts';
import { DEMO_INSTALL_NAME } from '../installs/service.ts';

// GET /widget-demo (ADR 039): an active install's widget on a hostile page, or the same page plain; its own
// CSP (inline script by a fresh nonce, the widget from this origin); 404 without an active install.
const c = useSuite();
const admin = () => c.token(c.seed.a.businessAdmin.email);
let key = '';
let id = 0;

beforeAll(async () => {
  await c.t.pool.query('update businesses set number_of_installs = 3');
  const res = await c.api.post(await admin(), '/api/v1/installs', {
    name: 'Shop site',
    website: 'https://shop.example',
  });
  expect(res.statusCode, res.body).toBe(200);
  ({ key, id } = res.json().data);
});

const get = (url: string) => c.t.app.inject({ method: 'GET', url });

describe('the widget demo page', () => {
  it("shows an active install's widget on the hostile page, with a CSP that lets in its script and the widget", async () => {
    const res = await get(`/widget-demo?install=${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    const html = res.body;
    expect(html).toContain(`<script src="/widget.js" data-key="${key}" async></script>`);
    expect(html).toContain('Shop site');
    expect(html).toContain('all: unset !important');
    expect(html).toContain('Array.prototype');
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("connect-src 'self'");
    expect(html).toContain(`<script nonce="${nonce}">`);
    const again = await get(`/widget-demo?install=${key}`);
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('?plain=1 is the same page without the hostile CSS and script', async () => {
    const res = await get(`/widget-demo?install=${key}&plain=1`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`data-key="${key}"`);
    expect(res.body).not.toContain('all: unset !important');
    expect(res.body).not.toContain('AP.map');
  });

  it('answers 404 for an unknown key, a switched-off or archived install, and a key that is no key', async () => {
    expect((await get('/widget-demo?install=no-such-key')).statusCode).toBe(404);
    expect((await get(`/widget-demo?install=${'x'.repeat(300)}`)).statusCode).toBe(404);
    expect((await get('/widget-demo?install=%00')).statusCode).toBe(404);
    const off = await c.api.post(await admin(), `/api/v1/installs/${id}/toggle-active`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect((await get(`/widget-demo?install=${key}`)).statusCode).toBe(404);
    await c.api.post(await admin(), `/api/v1/installs/${id}/toggle-active`, { active: true });
    expect((await get(`/widget-demo?install=${key}`)).statusCode).toBe(200);
  });

  it("without a key, shows the demo data's install, or 404 when there is none", async () => {
    expect((await get('/widget-demo')).statusCode).toBe(404);
    const res = await c.api.post(await admin(), '/api/v1/installs', {
      name: DEMO_INSTALL_NAME,
      website: 'https://brightdental.example',
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await get('/widget-demo');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`data-key="${res.json().data.key}"`);
  });

  it("places the install's first embedded form that takes answers inline, and none once it is off", async () => {
    expect((await get(`/widget-demo?install=${key}`)).body).not.toContain('data-stn-form');
    const form = await c.api.post(await admin(), '/api/v1/leadForm', {
      ...starterLeadForm(['en']),
      name: 'Enquiry',
    });
    expect(form.statusCode, form.body).toBe(200);
    const embed = await c.api.post(await admin(), `/api/v1/installs/${id}/forms`, {
      name: 'Contact page',
      lead_form_id: form.json().data.id,
    });
    expect(embed.statusCode, embed.body).toBe(200);
    const embedId = embed.json().data.id;
    expect((await get(`/widget-demo?install=${key}`)).body).toContain(`<div data-stn-form="${embedId}"`);
    const off = await c.api.post(await admin(), `/api/v1/installs/${id}/forms/${embedId}/toggle-active`);
    expect(off.statusCode, off.body).toBe(200);
    expect((await get(`/widget-demo?install=${key}`)).body).not.toContain('data-stn-form');
  });
});
