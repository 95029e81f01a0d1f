// Lead forms in the website widget (issue 21, ADR 074), through HTTP from another origin on a real database
// and the sandbox carrier: the install's form and the config's lead_form_id (and its ETag), an embedded form
// in the install's look, a submission that makes a tagged contact with its fields and consent, a second one
// finding the contact by phone and a third by e-mail, the answers refused in the visitor's language with
// nothing stored, the honeypot, a throttle, switched-off forms, the automation started by a tag, lead.submitted,
// the staff's e-mail in the outbox and their SMS at the sandbox carrier, the submissions API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, drainJobs, expectCrossTenant404, snapshot } from '../../../test/helpers.ts';
import { channel, type RealtimeMessage } from '../../platform/realtime/hub.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { type AutomationsTest, addAutomation, automationsApp, block } from '../automations/test-support.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { STAFF_1 } from '../telephony/testing.ts';
import { leadSubmitted } from './service.ts';
import { LEADS_PER_PHONE_MINUTE } from './submit.ts';
import { addField, addTag, enquiry, type FormTags } from './test-fixtures.ts';

let h: AutomationsTest;
let admin: string;
let tags: FormTags;
const SITE = 'https://dental.example.test';
const TABLES = ['contacts', 'contact_tags', 'lead_submissions', 'mail_outbox'];
const submitted: { contactId: number; submissionId: number; leadFormId: number; installId: number | null }[] =
  [];

type Opts = { lang?: string; ip?: string };
const headers = (key: string, o: Opts = {}) => ({
  'x-install-key': key,
  origin: SITE,
  ...(o.lang ? { 'accept-language': o.lang } : {}),
});
const wget = (key: string, url: string, o: Opts = {}) =>
  h.t.app.inject({
    method: 'GET',
    url: `/api/widget${url}`,
    headers: headers(key, o),
    ...(o.ip ? { remoteAddress: o.ip } : {}),
  });
const wpost = (key: string, url: string, payload: object, o: Opts = {}) =>
  h.t.app.inject({
    method: 'POST',
    url: `/api/widget${url}`,
    headers: headers(key, o),
    payload,
    ...(o.ip ? { remoteAddress: o.ip } : {}),
  });
const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

async function createForm(over: Record<string, unknown> = {}) {
  const res = await call(h.t).post(admin, '/api/v1/leadForm', enquiry(tags, over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number };
}

/** An install showing `formId` in its widget, its number known to the sandbox (it texts the staff). */
async function leadInstall(formId: number | null, settings: Record<string, unknown> = {}) {
  const install = await h.install({
    is_enable_lead_form: formId !== null,
    lead_form_id: formId,
    colors: { primary: '#AA3300', text: '#FFEEDD' },
    ...settings,
  });
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
  const [n] = await q('select phone_number from numbers where install_id = $1', [install.id]);
  return { ...install, number: n?.phone_number as string };
}

let counter = 0;
const phone = () => `+1415666${String(1000 + ++counter).padStart(4, '0')}`;

/** A complete set of answers (every required one), with `over` on top. */
const answers = (over: Record<string, unknown> = {}) => ({
  name: 'Ann Lee',
  phone: phone(),
  email: `ann${counter}@example.com`,
  service: ['cleaning', 'whitening'],
  insurer: 'Delta',
  ok: true,
  ...over,
});

beforeAll(async () => {
  h = await automationsApp({ WIDGET_RATE_PER_INSTALL: '100000' });
  admin = await h.token(h.seed.a.businessAdmin.email);
  const a = h.seed.a.business.id;
  tags = {
    lead: await addTag(h.t, a, 'Lead'),
    cleaning: await addTag(h.t, a, 'Cleaning'),
    whitening: await addTag(h.t, a, 'Whitening'),
    consent: await addTag(h.t, a, 'Marketing OK'),
  };
  await addField(h.t, a, 'insurer');
  h.t.app.deps.events.on(leadSubmitted, (p) => {
    submitted.push(p);
  });
});
afterAll(() => h?.close());

describe('the install’s lead form', () => {
  it('is named in the config while on and active (the ETag follows a toggle), and served in its public shape', async () => {
    const f = await createForm();
    const off = await leadInstall(null);
    expect((await wget(off.key, '/v1/config')).json().data.lead_form_id).toBeNull();
    const none = await wget(off.key, '/v1/lead-form');
    expect(none.statusCode, none.body).toBe(404);
    expect(none.headers['access-control-allow-origin']).toBe(SITE);

    const on = await leadInstall(f.id);
    const config = await wget(on.key, '/v1/config');
    expect(config.json().data.lead_form_id).toBe(f.id);
    const res = await wget(on.key, '/v1/lead-form');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    const form = res.json().data;
    expect(form).toMatchObject({ id: f.id, name: 'New patient enquiry', languages: ['en', 'es'] });
    expect(form.steps[1].questions[0].options).toEqual([
      { id: 'cleaning', label: { en: 'Cleaning', es: 'Limpieza' } },
      { id: 'whitening', label: { en: 'Whitening', es: 'Blanqueamiento' } },
    ]);
    // The business's own mapping never reaches a page: no tags, no contact fields.
    expect(JSON.stringify(form)).not.toMatch(/tag_id|tag_ids|map_to|field:insurer/);

    // Switched off: the config stops naming it (a new ETag) and the form is gone.
    await call(h.t).post(admin, `/api/v1/leadForm/${f.id}/toggle-active`);
    const after = await wget(on.key, '/v1/config');
    expect(after.json().data.lead_form_id).toBeNull();
    expect(after.headers.etag).not.toBe(config.headers.etag);
    expect((await wget(on.key, '/v1/lead-form')).statusCode).toBe(404);
    const refused = await wpost(on.key, '/v1/lead', { form_id: f.id, answers: answers() });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toBe('This form is not taking answers right now.');
  });

  it('answers the CORS preflight of the lead call from another origin', async () => {
    const res = await h.t.app.inject({
      method: 'OPTIONS',
      url: '/api/widget/v1/lead',
      headers: {
        origin: SITE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-install-key',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.headers['access-control-allow-headers']).toContain('x-install-key');
  });
});

describe('a submission', () => {
  it('makes a tagged contact with its fields and consent, starts the automation, notifies the staff', async () => {
    const f = await createForm();
    const install = await leadInstall(f.id, {
      notification_type: 'both',
      notification_email: 'desk@bright.test',
      notification_phone: STAFF_1,
    });
    // An automation that starts when a contact gets the Whitening tag.
    const automation = await addAutomation(h, {
      name: 'Whitening follow-up',
      trigger: 'new-tag',
      tags: [tags.whitening],
      blocks: [block('wait', 'Wait', { amount: 1, unit: 'minutes' })],
    });
    // The admin's inbox is told (realtime), as for a call.
    const told: RealtimeMessage[] = [];
    const stop = h.t.app.deps.realtime.subscribe([channel.user(h.seed.a.businessAdmin.id)], (m) =>
      told.push(m),
    );
    const res = await wpost(
      install.key,
      '/v1/lead',
      {
        form_id: f.id,
        language: 'es',
        answers: answers({ phone: '(415) 666-9001', email: 'Ann.Lee@Example.com' }),
        page_url: 'https://dental.example.test/contact',
      },
      { ip: '203.0.113.7' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    const { id, thanks, redirect_url } = res.json().data;
    expect(id).toBeGreaterThan(0);
    expect(thanks).toBe('¡Gracias, te llamaremos!');
    expect(redirect_url).toBeNull();

    const [contact] = await q('select * from contacts where phone = $1', ['+14156669001']);
    expect(contact).toMatchObject({
      business_id: h.seed.a.business.id,
      install_id: install.id,
      source: 'cms',
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann.lee@example.com',
      fields: { insurer: 'Delta' },
    });
    expect(contact.last_lead_at).not.toBeNull();
    const tagged = (
      await q('select tag_id from contact_tags where contact_id = $1 order by tag_id', [contact.id])
    ).map((r) => r.tag_id);
    expect(tagged).toEqual([tags.lead, tags.cleaning, tags.whitening, tags.consent].sort((a, b) => a - b));

    const [sub] = await q('select * from lead_submissions where id = $1', [id]);
    expect(sub).toMatchObject({
      lead_form_id: f.id,
      install_id: install.id,
      contact_id: contact.id,
      embedded_form_id: null,
      language: 'es',
      source: 'widget',
      ip: '203.0.113.7',
      page_url: 'https://dental.example.test/contact',
    });
    // As the visitor saw it: labels and choices in Spanish; the consent's text, time and address.
    expect(sub.answers).toContainEqual({
      question_id: 'service',
      label: '¿Qué necesitas?',
      type: 'choice',
      value: 'Limpieza, Blanqueamiento',
    });
    expect(sub.answers).toContainEqual({
      question_id: 'phone',
      label: 'Teléfono',
      type: 'phone',
      value: '+14156669001',
    });
    expect(sub.consents).toEqual([
      {
        question_id: 'ok',
        text: 'Pueden contactarme',
        given: true,
        at: expect.any(String),
        ip: '203.0.113.7',
      },
    ]);

    await expect
      .poll(() => told.filter((m) => m.type === 'conversation_lead').map((m) => m.data))
      .toEqual([{ contact: contact.id, install: install.id, submission: id }]);
    stop();

    // lead.submitted after commit; the new tag started the automation.
    expect(submitted).toContainEqual({
      agencyId: h.seed.a.agency.id,
      businessId: h.seed.a.business.id,
      contactId: contact.id,
      submissionId: id,
      leadFormId: f.id,
      installId: install.id,
    });
    await expect
      .poll(
        async () =>
          (
            await q(
              'select count(*)::int as n from automation_runs where automation_id = $1 and contact_id = $2',
              [automation, contact.id],
            )
          )[0].n,
        { timeout: 10_000, interval: 20 },
      )
      .toBe(1);

    // The staff's notice: an e-mail in the outbox and a text from the install's number.
    await drainJobs(h.t);
    const mails = await q('select * from mail_outbox where "to" = $1', ['desk@bright.test']);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('New lead from Ann Lee');
    expect(mails[0].text).toContain('¿Qué necesitas?: Limpieza, Blanqueamiento');
    expect(mails[0].text).toContain('Pueden contactarme: given');
    const sms = h.sandbox.sentMessages({ to: STAFF_1, from: install.number });
    expect(sms).toHaveLength(1);
    expect(sms[0]?.body).toContain('New lead from Ann Lee (+14156669001)');

    // The submissions API: the list by contact, one by id, and another business's 404.
    const list = await call(h.t).get(admin, `/api/v1/leadSubmissions?contact_id=${contact.id}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().meta.total).toBe(1);
    const one = await call(h.t).get(admin, `/api/v1/leadSubmissions/${id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toMatchObject({
      id,
      form_name: 'New patient enquiry',
      target_kind: 3,
      source: 'widget',
      language: 'es',
      consents: [{ question_id: 'ok', text: 'Pueden contactarme', given: true }],
    });
    expect(
      one
        .json()
        .data.tags.map((t: { name: string }) => t.name)
        .sort(),
    ).toEqual(['Cleaning', 'Lead', 'Marketing OK', 'Whitening']);
    expect((await call(h.t).get(admin, `/api/v1/leadForm/${f.id}`)).json().data.submissions).toBe(1);
    const adminB = await h.token(h.seed.b.businessAdmin.email);
    await expectCrossTenant404(h.t, {
      token: adminB,
      method: 'GET',
      url: `/api/v1/leadSubmissions/${id}`,
      control: { url: '/api/v1/leadSubmissions' },
      tables: ['lead_submissions'],
    });
  });

  it('finds the contact again by phone, then by e-mail (its phone becoming the new one)', async () => {
    const f = await createForm({ name: 'Returning visitors', tag_ids: [] });
    const install = await leadInstall(f.id, { notification_type: 'none' });
    const first = phone();
    const res1 = await wpost(install.key, '/v1/lead', {
      form_id: f.id,
      answers: answers({ phone: first, email: 'bob@example.com', name: 'Bob Stone', service: [] }),
    });
    expect(res1.statusCode, res1.body).toBe(200);
    const [c1] = await q('select * from contacts where phone = $1', [first]);
    // Same phone, no name this time, a new insurer: the name stays, the field changes.
    const res2 = await wpost(install.key, '/v1/lead', {
      form_id: f.id,
      answers: answers({
        phone: first,
        email: 'bob@example.com',
        name: '',
        insurer: 'Aetna',
        service: ['cleaning'],
      }),
    });
    expect(res2.statusCode, res2.body).toBe(200);
    const [c2] = await q('select * from contacts where phone = $1', [first]);
    expect(c2).toMatchObject({
      id: c1.id,
      first_name: 'Bob',
      last_name: 'Stone',
      fields: { insurer: 'Aetna' },
    });
    // A new phone with the same e-mail (another case): the same contact, now on the new phone.
    const second = phone();
    const res3 = await wpost(install.key, '/v1/lead', {
      form_id: f.id,
      answers: answers({ phone: second, email: 'BOB@example.com', name: 'Bob Stone' }),
    });
    expect(res3.statusCode, res3.body).toBe(200);
    const [c3] = await q('select id, phone from contacts where id = $1', [c1.id]);
    expect(c3).toEqual({ id: c1.id, phone: second });
    expect(await q('select id from contacts where phone = $1', [first])).toEqual([]);
    const subs = await q('select contact_id from lead_submissions where lead_form_id = $1', [f.id]);
    expect(subs.map((s) => s.contact_id)).toEqual([c1.id, c1.id, c1.id]);
  });

  it("shows a contact's leads on its page and in its conversation to whoever sees them, an SMS agent too", async () => {
    const f = await createForm({ name: 'Agents see leads', tag_ids: [] });
    const salesId = h.seed.a.businessUser.id;
    const agents = await leadInstall(f.id, { notification_type: 'none', smsAgents: [salesId] });
    const others = await leadInstall(f.id, { notification_type: 'none' });
    const send = async (key: string) => {
      const res = await wpost(key, '/v1/lead', { form_id: f.id, answers: answers({ service: [] }) });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().data.id as number;
      const [row] = await q('select contact_id from lead_submissions where id = $1', [id]);
      return { id, contact: row?.contact_id as number };
    };
    const mine = await send(agents.key);
    const theirs = await send(others.key);
    const sales = await h.token(h.seed.a.businessUser.email);
    // The SMS agent of the install works that conversation: its lead is there, Target kind 3.
    const inbox = await call(h.t).get(sales, `/api/v1/chats/contacts/${mine.contact}/leads`);
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(inbox.json().data.map((l: { id: number; target_kind: number }) => [l.id, l.target_kind])).toEqual([
      [mine.id, 3],
    ]);
    // Not a conversation of another install's: 404, as the inbox answers it.
    expect((await call(h.t).get(sales, `/api/v1/chats/contacts/${theirs.contact}/leads`)).statusCode).toBe(
      404,
    );
    // The contact's page (contacts.use) shows any contact's leads; the lead forms' own list stays refused.
    const page = await call(h.t).get(sales, `/api/v1/contacts/${theirs.contact}/leads`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.map((l: { id: number }) => l.id)).toEqual([theirs.id]);
    expect((await call(h.t).get(sales, '/api/v1/leadSubmissions')).statusCode).toBe(403);
    // Another business: 404 both ways.
    const adminB = await h.token(h.seed.b.businessAdmin.email);
    expect((await call(h.t).get(adminB, `/api/v1/contacts/${mine.contact}/leads`)).statusCode).toBe(404);
    expect((await call(h.t).get(adminB, `/api/v1/chats/contacts/${mine.contact}/leads`)).statusCode).toBe(
      404,
    );
  });

  it("refuses wrong answers in the visitor's language, keyed by question, storing nothing", async () => {
    const f = await createForm({ name: 'Checked' });
    const install = await leadInstall(f.id);
    const before = await snapshot(h.t.pool, TABLES);
    const bad = answers({ phone: '12', email: 'nope', ok: false, service: ['botox'] });
    const en = await wpost(install.key, '/v1/lead', { form_id: f.id, answers: bad });
    expect(en.statusCode, en.body).toBe(422);
    expect(en.json().errors).toEqual({
      'answers.phone': ['Wrong phone number format!!'],
      'answers.email': ['Please enter a valid email address.'],
      'answers.service': ['This value is invalid.'],
      'answers.ok': ['Please tick this box to go on.'],
    });
    // The body's language, else the browser's.
    const es = await wpost(
      install.key,
      '/v1/lead',
      { form_id: f.id, answers: bad },
      { lang: 'es-ES,es;q=0.9' },
    );
    expect(es.json().errors['answers.phone']).toEqual(['¡¡Formato de número de teléfono incorrecto!!']);
    const missing = await wpost(install.key, '/v1/lead', { form_id: f.id, language: 'es', answers: {} });
    expect(missing.json().errors['answers.phone']).toEqual(['Este campo es obligatorio']);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('answers a filled honeypot as if it worked, storing nothing', async () => {
    const f = await createForm({ name: 'Bot bait' });
    const install = await leadInstall(f.id);
    const before = await snapshot(h.t.pool, TABLES);
    const res = await wpost(install.key, '/v1/lead', {
      form_id: f.id,
      answers: answers(),
      website: 'http://spam.example',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: 0, redirect_url: null });
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('throttles one phone (429 with a sentence) and refuses another install’s form', async () => {
    const f = await createForm({ name: 'Throttled', tag_ids: [] });
    const install = await leadInstall(f.id, { notification_type: 'none' });
    const same = phone();
    for (let i = 0; i < LEADS_PER_PHONE_MINUTE; i++) {
      const ok = await wpost(install.key, '/v1/lead', { form_id: f.id, answers: answers({ phone: same }) });
      expect(ok.statusCode, ok.body).toBe(200);
    }
    const before = await snapshot(h.t.pool, TABLES);
    const res = await wpost(install.key, '/v1/lead', { form_id: f.id, answers: answers({ phone: same }) });
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().message).toBe('Too many forms sent. Please wait a minute and try again.');
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    // A form the install does not show: 404.
    const other = await createForm({ name: 'Not on this install' });
    expect((await wpost(install.key, '/v1/lead', { form_id: other.id, answers: answers() })).statusCode).toBe(
      404,
    );
  });
});

describe('an embedded form', () => {
  it('is served in the install’s look, takes answers with its redirect, and is refused switched off', async () => {
    const f = await createForm({ name: 'Embedded', styling: { ButtonColor: '#112233', Padding: 5 } });
    // The notice's defaults: by e-mail, to the business's admins (no address set), in the install's language.
    const install = await leadInstall(null, { language: 'es' });
    const otherInstall = await leadInstall(null);
    const base = `/api/v1/installs/${install.id}/forms`;
    const e = (
      await call(h.t).post(admin, base, {
        name: 'Contact page',
        lead_form_id: f.id,
        settings: { redirect_url: 'https://dental.example.test/thanks' },
      })
    ).json().data;
    const own = (
      await call(h.t).post(admin, base, {
        name: 'Own look',
        lead_form_id: f.id,
        settings: { use_install_style: false },
      })
    ).json().data;

    const res = await wget(install.key, `/v1/forms/${e.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: e.id,
      settings: { language: 'auto', use_install_style: true },
      form: { id: f.id },
    });
    // The install's colours: primary on the buttons, its text colour, its panel's padding.
    expect(data.form.styling).toMatchObject({
      ButtonColor: '#AA3300',
      ButtonTextColor: '#FFEEDD',
      Padding: 20,
    });
    const plain = (await wget(install.key, `/v1/forms/${own.id}`)).json().data;
    expect(plain.form.styling).toMatchObject({ ButtonColor: '#112233', Padding: 5 });
    // Another install's key does not open it.
    expect((await wget(otherInstall.key, `/v1/forms/${e.id}`)).statusCode).toBe(404);

    const toAdmin = `select subject from mail_outbox where "to" = '${h.seed.a.businessAdmin.email}' and subject like 'Nuevo contacto%' order by id`;
    const mailed = (await q(toAdmin)).length;
    const sent = await wpost(install.key, '/v1/lead', {
      form_id: f.id,
      embed_id: e.id,
      answers: answers({ name: 'Eva Mar' }),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({
      thanks: 'Thanks, we will call you!',
      redirect_url: 'https://dental.example.test/thanks',
    });
    const [sub] = await q('select source, embedded_form_id from lead_submissions where id = $1', [
      sent.json().data.id,
    ]);
    expect(sub).toEqual({ source: 'embed', embedded_form_id: e.id });
    expect((await call(h.t).get(admin, `${base}/${e.id}`)).json().data.submissions).toBe(1);
    await drainJobs(h.t);
    expect((await q(toAdmin)).slice(mailed)).toEqual([{ subject: 'Nuevo contacto de Eva Mar' }]);
    // Through another install: 404.
    expect(
      (await wpost(otherInstall.key, '/v1/lead', { form_id: f.id, embed_id: e.id, answers: answers() }))
        .statusCode,
    ).toBe(404);

    await call(h.t).post(admin, `${base}/${e.id}/toggle-active`);
    expect((await wget(install.key, `/v1/forms/${e.id}`)).statusCode).toBe(404);
    const off = await wpost(install.key, '/v1/lead', { form_id: f.id, embed_id: e.id, answers: answers() });
    expect(off.statusCode, off.body).toBe(403);
    expect(off.json().message).toBe('This form is not taking answers right now.');
  });
});
