// The agency's payment popup on its own websites (issue 23): the popup's offer (public), the script
// snippet (popup.manage, the agency's own white-label site) and the /popup.js loader it names.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers.ts';
import { HOST_A, HOST_B, MAIN, onHost, type Plans, seedOrders } from './test-fixtures.ts';
import { enableCardPayments } from './test-stripe.ts';

const c = useSuite({ env: { MAIN_DOMAIN: MAIN } });
let plans: Plans;
let h: ReturnType<typeof onHost>;
const OFFER = '/api/v1/agencies/popup-offer';

/** Agency A's white-label site: its custom domain, else its subdomain of the main domain. */
async function siteHostA(): Promise<string> {
  const [row] = (
    await c.t.pool.query('select domain, subdomain from agencies where id = $1', [c.seed.a.agency.id])
  ).rows;
  return (row.domain ?? `${row.subdomain}.${MAIN}`).replace(/\./g, '\\.');
}

beforeAll(async () => {
  plans = await seedOrders(c);
  h = onHost(c.t);
  await enableCardPayments(c, c.seed.a.agency.id);
});

async function setPopup(body: Record<string, unknown>) {
  const admin = await c.token(c.seed.a.agencyAdmin.email);
  const res = await c.api.put(admin, `/api/v1/agencies/${c.seed.a.agency.id}/popup-payment`, body);
  expect(res.statusCode, res.body).toBe(200);
}

describe('GET /v1/agencies/popup-offer (public)', () => {
  it("answers the site's popup: off without a plan, then its texts and plan once enabled", async () => {
    await setPopup({ enabled: false });
    const off = await h.get(HOST_A, OFFER);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ enabled: false, plan: null });

    await setPopup({
      enabled: true,
      title: 'Start today',
      description: 'Texting for your shop',
      button_text: 'Buy now',
      plan_id: plans.businessPlanA,
    });
    const on = await h.get(MAIN, `${OFFER}?domain=${HOST_A}`);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data).toMatchObject({
      enabled: true,
      title: 'Start today',
      description: 'Texting for your shop',
      button_text: 'Buy now',
      plan: { id: plans.businessPlanA, interval: 'month' },
    });
    expect(on.json().data.agencyId).toBeUndefined();
    // Agency B has no popup; an unknown site is a 404.
    expect((await h.get(HOST_B, OFFER)).json().data).toMatchObject({ enabled: false, plan: null });
    expect((await h.get('nobody.example.org', OFFER)).statusCode).toBe(404);
  });
});

describe('POST /v1/agencies/popup-script', () => {
  it("gives the snippet naming the agency's own site; popup.manage only", async () => {
    const admin = await c.token(c.seed.a.agencyAdmin.email);
    const res = await c.api.post(admin, '/api/v1/agencies/popup-script', {});
    expect(res.statusCode, res.body).toBe(200);
    const id = c.seed.a.agency.id;
    expect(res.json().data.script).toMatch(
      new RegExp(
        `^<script src="https?://${await siteHostA()}(:\\d+)?/popup\\.js" data-agency="${id}" async></script>$`,
      ),
    );
    const denied = await c.api.post(
      await c.token(c.seed.a.businessAdmin.email),
      '/api/v1/agencies/popup-script',
      {},
    );
    expect(denied.statusCode).toBe(403);
    expect((await c.api.post(null, '/api/v1/agencies/popup-script', {})).statusCode).toBe(401);
  });
});

describe('GET /popup.js', () => {
  it('on the agency site with the popup on: the loader, for any site, opening the site /popup', async () => {
    await setPopup({ enabled: true, button_text: 'Buy now', plan_id: plans.businessPlanA });
    const res = await h.get(HOST_A, '/popup.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.body).toContain(`"agency":${c.seed.a.agency.id}`);
    expect(res.body).toMatch(new RegExp(`"origin":"https?://${await siteHostA()}(:\\d+)?"`));
    expect(res.body).toContain("'/popup'");
    expect(res.body).toContain('"label":"Buy now"');
    expect(res.body).toContain("e.key === 'Escape'");
  });

  it('does nothing when the popup is off or the site is unknown', async () => {
    await setPopup({ enabled: false });
    for (const host of [HOST_A, HOST_B, 'nobody.example.org']) {
      const res = await h.get(host, '/popup.js');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('no offer');
      expect(res.body).not.toContain('iframe');
    }
  });

  it('keeps a text that would end the script out of it', async () => {
    await setPopup({ enabled: true, button_text: '</script><b>x', plan_id: plans.businessPlanA });
    const res = await h.get(HOST_A, '/popup.js');
    expect(res.body).not.toContain('</script>');
    expect(res.body).toContain('\\u003c/script>');
  });
});
