// The "analytics integration" business setting (issue 25, ADR 087): PUT /v1/businesses/setting stores it,
// refuses bad input changing nothing, only touches the caller's business, and the widget's public config
// carries its flags and nothing else.
import { describe, expect, it } from 'vitest';
import { bearer, row, snapshot, useSuite } from '../../../test/helpers.ts';

const c = useSuite({ sessions: true });
const TABLES = ['businesses'];

const put = (token: string, payload: object) => c.call(token, 'PUT', '/v1/businesses/setting', payload);

/** A fresh install of business A, and a reader of its widget config. */
async function installOfA() {
  await c.t.pool.query('update businesses set number_of_installs = 100 where id = $1', [
    c.seed.a.business.id,
  ]);
  const res = await c.t.app.inject({
    method: 'POST',
    url: '/api/v1/installs',
    headers: bearer(c.s.a.businessAdmin.token),
    payload: { name: 'Tags site', website: 'https://example.test', settings: { timezone: 'UTC' } },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { key } = res.json().data as { key: string };
  return async () => {
    const cfg = await c.t.app.inject({
      method: 'GET',
      url: '/api/widget/v1/config',
      headers: { 'x-install-key': key, origin: 'https://shop.example.test' },
    });
    expect(cfg.statusCode, cfg.body).toBe(200);
    return cfg.json().data;
  };
}

describe('the analytics integration setting', () => {
  it('is off in the widget config until turned on, then carries only the flags', async () => {
    const config = await installOfA();
    expect((await config()).analytics).toBeNull();

    const res = await put(c.s.a.businessAdmin.token, {
      analytics: { enabled: true, gtag: true, data_layer: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Analytics settings updated successfully.');
    expect((await row(c.t, 'businesses', c.seed.a.business.id)).settings.analytics).toEqual({
      enabled: true,
      gtag: true,
      data_layer: false,
    });
    const on = await config();
    expect(on.analytics).toEqual({ gtag: true, data_layer: false });
    // Nothing else of the business's settings reaches the page.
    expect(Object.keys(on).sort()).toEqual([
      'analytics',
      'business_name',
      'id',
      'lead_form_id',
      'logo',
      'open_now',
      'settings',
      'widget_icon',
      'widget_type',
    ]);
    expect(on.settings).not.toHaveProperty('analytics');

    // Saving notifications keeps the analytics setting, and turning it off empties the config's flags.
    expect((await put(c.s.a.businessAdmin.token, { notifications: { new_task: false } })).statusCode).toBe(
      200,
    );
    expect((await config()).analytics).toEqual({ gtag: true, data_layer: false });
    expect(
      (await put(c.s.a.businessAdmin.token, { analytics: { enabled: false, gtag: true, data_layer: true } }))
        .statusCode,
    ).toBe(200);
    expect((await config()).analytics).toBeNull();
  });

  it('answers 422 with the field message and changes nothing', async () => {
    const before = await snapshot(c.t.pool, TABLES);
    const none = await put(c.s.a.businessAdmin.token, {
      analytics: { enabled: true, gtag: false, data_layer: false },
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors['analytics.gtag']).toEqual([
      'Choose Google Analytics, the data layer or both.',
    ]);
    const es = await c.t.app.inject({
      method: 'PUT',
      url: '/api/v1/businesses/setting',
      headers: { ...bearer(c.s.a.businessAdmin.token), 'accept-language': 'es' },
      payload: { analytics: { enabled: true, gtag: false, data_layer: false } },
    });
    expect(es.json().errors['analytics.gtag']).toEqual(['Elija Google Analytics, la capa de datos o ambos.']);
    const bad = await put(c.s.a.businessAdmin.token, {
      analytics: { enabled: 'yes', gtag: true, data_layer: false },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['analytics.enabled']).toEqual(['The enabled field must be true or false.']);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });

  it("changes only the caller's business; another business's user cannot reach it", async () => {
    const otherBefore = await row(c.t, 'businesses', c.seed.a.business.id);
    const res = await put(c.s.b.businessAdmin.token, {
      analytics: { enabled: true, gtag: true, data_layer: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(c.seed.b.business.id);
    expect(await row(c.t, 'businesses', c.seed.a.business.id)).toEqual(otherBefore);
    expect((await row(c.t, 'businesses', c.seed.b.business.id)).settings.analytics).toEqual({
      enabled: true,
      gtag: true,
      data_layer: true,
    });
    // A business user of A (not its admin) may not change it either.
    const before = await snapshot(c.t.pool, TABLES);
    const user = await put(c.s.a.businessUser.token, {
      analytics: { enabled: true, gtag: true, data_layer: true },
    });
    expect(user.statusCode).toBe(403);
    expect(await snapshot(c.t.pool, TABLES)).toEqual(before);
  });
});
