// The demo data of the first start is made the way the screens make it: the seeded Acme agency has its
// white-label entry, like an agency created with Add Agency.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAnalytics } from '../src/modules/analytics/jobs.ts';
import { platformSystemContext } from '../src/platform/tenancy/context.ts';
import { seedFirstStart } from '../src/seed.ts';
import { bearer, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_DATA: 'true' });
  await seedFirstStart({ db: t.db, config: t.config, log: pino({ level: 'silent' }) });
});
afterAll(() => t?.close());

type Entry = { domain: string; type: string; cert_status: string; agency: { name: string } };

describe('seeded demo data', () => {
  it('gives Acme its white-label entry, the same as an agency made with Add Agency', async () => {
    const token = await login(t.app, 'admin@demo.test', 'demo-admin-1');
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/agencies',
      headers: bearer(token),
      payload: {
        name: 'Newco',
        user: { email: 'owner@newco.test', firstName: 'Nora', password: 'new-co-password-1' },
        whitelabel: { domain: 'newco', type: 'subdomain' },
      },
    });
    expect(made.statusCode, made.body).toBe(200);

    const res = await t.app.inject({ url: '/api/v1/whitelabels?perPage=100', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    const entries: Entry[] = res.json().data;
    const main = t.config.mainDomain;
    const acme = entries.find((e) => e.agency.name === 'Acme Callbacks');
    const newco = entries.find((e) => e.agency.name === 'Newco');
    expect(acme).toMatchObject({ domain: `acme.${main}`, type: 'subdomain', cert_status: 'none' });
    expect(newco).toMatchObject({ domain: `newco.${main}`, type: 'subdomain', cert_status: 'none' });

    // The site on acme.<MAIN_DOMAIN> still answers as Acme.
    const site = await t.app.inject({ url: `/api/v1/settings/site-data/acme.${main}` });
    expect(site.json().data).toMatchObject({ validDomain: true, title: 'Acme Callbacks' });
  });

  it('is not made twice on a restart', async () => {
    await seedFirstStart({ db: t.db, config: t.config, log: pino({ level: 'silent' }) });
    const { rows } = await t.pool.query(
      `select count(*)::int as n from whitelabels w join agencies a on a.id = w.agency_id
        where a.name = 'Acme Callbacks'`,
    );
    expect(rows[0].n).toBe(1);
  });

  it('gives Bright Dental an active install with two phone agents, answering on the widget tree', async () => {
    const token = await login(t.app, 'admin@brightdental.test', 'demo-dental-1');
    const list = await t.app.inject({ url: '/api/v1/installs', headers: bearer(token) });
    expect(list.statusCode, list.body).toBe(200);
    const [install] = list.json().data;
    expect(install).toMatchObject({ name: 'Bright Dental website', status: 'active', active: true });
    expect(install.settings.phoneAgents).toMatchObject([
      { name: 'Front desk', phone: '+15005550101' },
      { name: 'Dr. Bright', phone: '+15005550102' },
    ]);
    const config = await t.app.inject({
      url: '/api/widget/v1/config',
      headers: { 'x-install-key': install.key },
    });
    expect(config.statusCode, config.body).toBe(200);
    const profile = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(profile.json().data.user.open_install_wizard).toBe(false);
  });

  it('gives Bright Dental tagged contacts, two broadcast numbers and a finished broadcast with its report', async () => {
    const token = await login(t.app, 'admin@brightdental.test', 'demo-dental-1');
    const get = (url: string) => t.app.inject({ url, headers: bearer(token) });
    const contacts = (await get('/api/v1/contacts?perPage=1')).json();
    expect(contacts.meta.total).toBeGreaterThanOrEqual(300);
    const tags = (await get('/api/v1/tags/all')).json().data.map((x: { name: string }) => x.name);
    expect(tags).toEqual(expect.arrayContaining(['VIP', 'Newsletter', 'Spring sale']));
    const numbers = (await get('/api/v1/broadcasters/all')).json().data;
    expect(numbers).toHaveLength(2);
    const list = (await get('/api/v1/broadcasts?status=completed')).json();
    expect(list.meta.total).toBe(1);
    const [b] = list.data;
    expect(b.counts.total).toBe(100);
    expect(b.counts.skipped).toBeGreaterThan(0);
    expect(b.counts.failed).toBe(3);
    expect(b.counts.delivered).toBeGreaterThan(80);
    expect(b.counts.replied).toBeGreaterThan(0);
    expect(b.counts.credits_used).toBe(b.counts.sent * 2);
    const report = (await get(`/api/v1/broadcasts/${b.id}/report?replied=true`)).json().data;
    expect(report.failed_by_reason).toHaveLength(3);
    expect(report.timeline.length).toBeGreaterThan(0);
    expect(report.recipients.some((r: { asks_to_stop: boolean }) => r.asks_to_stop)).toBe(true);
    // The replies are conversations of the inbox, marked with the broadcast.
    const { rows } = await t.pool.query(
      "select count(*)::int as n from messages where broadcast_id = $1 and direction = 'in'",
      [b.id],
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('gives Bright Dental two active automations that pass the activation check, and a gallery of templates', async () => {
    const token = await login(t.app, 'admin@brightdental.test', 'demo-dental-1');
    const list = (
      await t.app.inject({ url: '/api/v1/automations?status=active', headers: bearer(token) })
    ).json();
    const byName = new Map(list.data.map((a: { name: string; id: number }) => [a.name, a]));
    expect([...byName.keys()].sort()).toEqual(['Missed call follow-up', 'Price enquiry']);
    expect(byName.get('Missed call follow-up')).toMatchObject({ start_trigger: 'missed-call' });
    expect(byName.get('Price enquiry')).toMatchObject({
      start_trigger: 'sms-keyword',
      trigger: { config: { keywords: ['PRICE'] } },
    });
    // Acme's template business gives its businesses a gallery to copy from.
    const gallery = (
      await t.app.inject({ url: '/api/v1/automations/templates', headers: bearer(token) })
    ).json();
    expect(gallery.data.map((x: { name: string }) => x.name).sort()).toEqual([
      'Birthday greeting',
      'Nurture new leads (office hours)',
      'Review request after a call',
    ]);
    // Switched off and on again: the server's own check (every block, every id of the business) lets them.
    for (const a of list.data as { id: number }[]) {
      for (const active of [false, true]) {
        const res = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/automations/${a.id}/toggle`,
          headers: bearer(token),
          payload: { active },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
  });

  it('gives Bright Dental an active two-step lead form in English and Spanish, on its widget and embedded', async () => {
    const token = await login(t.app, 'admin@brightdental.test', 'demo-dental-1');
    const get = (url: string) => t.app.inject({ url, headers: bearer(token) });
    const list = (await get('/api/v1/allLeadForms')).json();
    expect(list.meta.total).toBe(1);
    const [form] = list.data;
    expect(form).toMatchObject({ name: 'New patient enquiry', active: true, languages: ['en', 'es'] });
    expect(form.steps).toHaveLength(2);
    const questions = form.steps.flatMap((s: { questions: unknown[] }) => s.questions);
    const choice = questions.find((q: { type: string }) => q.type === 'choice');
    const consent = questions.find((q: { type: string }) => q.type === 'consent');
    expect(choice.options.filter((o: { tag_id: number | null }) => o.tag_id !== null)).toHaveLength(2);
    expect(consent.tag_id).toEqual(expect.any(Number));
    // Shown by the demo install's widget and placed on its contact page.
    const [install] = (await get('/api/v1/installs')).json().data;
    expect(install.settings).toMatchObject({ is_enable_lead_form: true, lead_form_id: form.id });
    expect(form.installs).toEqual([{ id: install.id, name: install.name }]);
    const embeds = (await get(`/api/v1/installs/${install.id}/forms`)).json();
    expect(embeds.data).toMatchObject([{ lead_form_id: form.id, active: true }]);
    const widget = await t.app.inject({
      url: '/api/widget/v1/lead-form',
      headers: { 'x-install-key': install.key },
    });
    expect(widget.statusCode, widget.body).toBe(200);
    expect(widget.json().data.id).toBe(form.id);
    const config = await t.app.inject({
      url: '/api/widget/v1/config',
      headers: { 'x-install-key': install.key },
    });
    expect(config.json().data.lead_form_id).toBe(form.id);
  });

  it('gives Bright Dental five weeks of calls before today, and AdminSupport a dashboard with figures', async () => {
    const [span] = (
      await t.pool.query(
        // Every call before yesterday began in the install's zone (the seed's promise: a call made today
        // is alone in today's range), whatever the hour the test runs at.
        `select count(*)::int as n,
                bool_and(c.requested_at < (date_trunc('day', now() at time zone analytics_tz(c.business_id, c.install_id))
                  - interval '1 day') at time zone analytics_tz(c.business_id, c.install_id)) as before_today
         from calls c join businesses b on b.id = c.business_id where b.name = 'Bright Dental'`,
      )
    ).rows;
    expect(span.n).toBeGreaterThan(300);
    expect(span.before_today).toBe(true);
    await sweepAnalytics(platformSystemContext(t.app.deps, 'job', 'test sweep'));
    const token = await login(t.app, 'support@brightdental.test', 'demo-dental-2');
    const day = (ms: number) => new Date(Date.now() - ms).toISOString().slice(0, 10);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/business/analytics',
      headers: bearer(token),
      payload: { from: day(40 * 86_400_000), to: day(0) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { totals, connect } = res.json().data;
    // Every seeded call is in the range: the dashboard counts them all.
    expect(totals.callbacks_requested + totals.scheduled_calls + totals.inbound_calls).toBe(span.n);
    expect(totals.callbacks_answered).toBeGreaterThan(0);
    expect(connect.median).toBeGreaterThan(0);
  });
});
