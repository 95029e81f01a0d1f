import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers.ts';

const c = useSuite({ env: { MAIN_DOMAIN: 'platform.test', MAINTENANCE: 'true' } });

const site = async (host: string) => {
  const res = await c.t.app.inject({
    method: 'GET',
    url: `/api/v1/settings/site-data/${encodeURIComponent(host)}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

describe('GET /v1/settings/site-data/{domain}', () => {
  it('resolves the main domain to the main agency', async () => {
    const d = await site('platform.test');
    expect(d).toMatchObject({
      validDomain: true,
      isMainAgency: true,
      isMainDomain: true,
      title: 'Main Site',
      landingPage: true,
    });
    expect(d.agency_id).toBe(c.seed.main.id);
    expect((await site('www.platform.test')).agency_id).toBe(c.seed.main.id);
  });

  it('resolves a white-label subdomain, with a port and any case', async () => {
    const d = await site('Agency-A.platform.test:3000');
    expect(d).toMatchObject({
      validDomain: true,
      isMainAgency: false,
      isMainDomain: false,
      agency_id: c.seed.a.agency.id,
      title: 'Agency A Calls',
      headerLogo: 'https://cdn.example.com/a.png',
      loginLogo: 'https://cdn.example.com/a.png',
    });
  });

  it('resolves a custom white-label domain', async () => {
    expect((await site('calls-b.example.com')).agency_id).toBe(c.seed.b.agency.id);
  });

  it('answers validDomain false for unknown hosts and archived agencies', async () => {
    expect(await site('nobody.example.org')).toMatchObject({ validDomain: false, agency_id: null });
    expect(await site('zzz.platform.test')).toMatchObject({ validDomain: false });
    await c.t.pool.query(`update agencies set status = 'archived' where id = $1`, [c.seed.b.agency.id]);
    expect(await site('calls-b.example.com')).toMatchObject({ validDomain: false });
  });

  it('carries the maintenance flag from the environment', async () => {
    expect((await site('platform.test')).maintenance).toBe(true);
  });
});
