import { LEAD_TEXT_DEFAULTS, LEAD_UI_TEXTS } from '@stn/contracts/lead-form-public';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, startPlatform } from './harness.ts';
import { addChoiceAndNotesSteps, fill, spanishOfNewStepsAndSave } from './lead-form-builder.ts';
import {
  type Admin,
  adminSession,
  api,
  customerSite,
  HOST,
  type Site,
  setSettings,
  type Visitor,
  visit,
  WAIT,
} from './widget-helpers.ts';

// Issue 21's acceptance journey, end to end: Bright Dental's BusinessAdmin builds a three-step lead form in
// English and Spanish in the builder, its choice's options mapped to tags; an automation starts on one of
// those tags; the demo install shows the form in its widget and e-mails the staff of each lead. Visitor A
// sends it in English through the widget's LeadLabel trigger on the business's site (a second origin);
// visitor B sends it in Spanish through an embedded form on another page (a third origin). Through the API:
// both contacts with their names and mapped tags, the submissions' language and source, the automation's
// run for the contact whose tag starts it (and none for the other), and one staff e-mail a submission in
// the outbox.

let p: Platform;
let admin: Admin;
const visitors: Visitor[] = [];
const sites: Site[] = [];

const NAME = 'Smile consultation';
/** The tags the choice's options give, and the one the automation adds (its visible effect). */
const TAG = { whitening: 'Lead: whitening', implants: 'Lead: implants', followUp: 'Implants follow-up' };
const tagIds: Record<keyof typeof TAG, number> = { whitening: 0, implants: 0, followUp: 0 };
/** The staff's address for this install's lead notices: unique to this run, so the outbox has only ours. */
const NOTIFY = `front-desk-${Date.now().toString(36)}@brightdental.test`;
const A = { name: 'Ana Lead', phone: '+14155550191', email: 'ana.lead@example.com' };
const B = { name: 'Lucía Ruiz', phone: '+14155550192' };

/** The saved form as the API reads it back: its id, and the ids the builder gave its questions. */
type SavedForm = {
  id: number;
  name: string;
  languages: string[];
  steps: {
    id: string;
    questions: {
      id: string;
      type: string;
      required: boolean;
      options: { id: string; label: Record<string, string>; tag_id: number | null }[];
    }[];
  }[];
};
let form: SavedForm;
/** The choice question, its option per tag, and the last step's long text (ids from the saved form). */
const ids = { choice: '', whitening: '', implants: '', notes: '' };
let automationId = 0;

type Contact = {
  id: number;
  phone: string;
  first_name: string;
  last_name: string;
  email: string | null;
  tags: { name: string }[];
};

async function contactOf(phone: string): Promise<Contact | undefined> {
  const res = await api<{ data: Contact[] }>(
    admin,
    'GET',
    `/api/v1/contacts?keyword=${encodeURIComponent(phone)}`,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data.find((c) => c.phone === phone);
}

const tagNames = (c: Contact | undefined) => (c?.tags ?? []).map((t) => t.name).sort();

type Run = { automation_id: number; trigger: string; status: string; contact_phone: string };

async function runsOf(contactId: number): Promise<Run[]> {
  const res = await api<{ data: Run[] }>(admin, 'GET', `/api/v1/automations/contact/${contactId}/runs`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data.filter((r) => r.automation_id === automationId);
}

/** Goes through the open lead form's three steps (`within`: the widget's host or an embed's placeholder). */
async function sendLead(
  within: Locator,
  who: { name: string; phone: string; email?: string },
  option: string,
  note: string,
) {
  await within.getByTestId('stn-q-name').fill(who.name);
  await within.getByTestId('stn-q-phone').fill(who.phone);
  if (who.email) await within.getByTestId('stn-q-email').fill(who.email);
  await within.getByTestId('stn-lead-next').click();
  await within.getByTestId(`stn-q-${ids.choice}-${option}`).check();
  await within.getByTestId('stn-lead-next').click();
  await within.getByTestId(`stn-q-${ids.notes}`).fill(note);
  await within.getByTestId('stn-lead-submit').click();
}

describe.skipIf(!hasChromium)(
  'issue 21: a lead form built, sent in two languages from two other origins',
  () => {
    beforeAll(async () => {
      p = await startPlatform();
      admin = await adminSession(p);
      for (const key of Object.keys(TAG) as (keyof typeof TAG)[]) {
        const made = await api<{ data: { id: number } }>(admin, 'POST', '/api/v1/tags', { name: TAG[key] });
        expect(made.status, JSON.stringify(made.json)).toBe(200);
        tagIds[key] = made.json.data.id;
      }
      // Bright Dental's plan holds its two demo automations: the agency gives it room for one more.
      const agency = await apiAs(p, DEMO.acmeAgency);
      const list = await agency<{ data: { id: number; name: string }[] }>('/v1/business?keyword=Bright');
      const dental = list.body.data.find((b) => b.name === 'Bright Dental');
      const raised = await agency(`/v1/business/${dental?.id}`, {
        method: 'PUT',
        body: { number_of_automations: 5 },
      });
      expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    });
    afterAll(async () => {
      for (const v of visitors) await v.context.close().catch(() => undefined);
      await admin?.page
        .context()
        .close()
        .catch(() => undefined);
      for (const s of sites) await s.close();
      await p?.stop();
    });

    it('the admin builds a three-step form in English and Spanish, its choice’s options mapped to tags', async () => {
      const { page } = admin;
      await page.setViewportSize({ width: 1400, height: 1000 });
      await page.goto(p.url('/business/leadForms/create', HOST));
      await fill(page, 'lf-name', NAME);
      await page.getByTestId('lf-lang-es').check();
      // Step 1 is the starter's (name, phone, e-mail), the phone required.
      expect(await page.getByTestId('lf-q-0-1-required').isChecked()).toBe(true);

      // Step 2: a required choice whose options give tags; step 3: a long text; then the Spanish words.
      await addChoiceAndNotesSteps(page, TAG);
      await spanishOfNewStepsAndSave(page);

      // Read back through the API: the id, the languages, the steps, the tags of the options.
      const all = await api<{ data: SavedForm[] }>(admin, 'GET', '/api/v1/allLeadForms?perPage=100');
      expect(all.status, JSON.stringify(all.json)).toBe(200);
      const saved = all.json.data.find((f) => f.name === NAME);
      if (!saved) throw new Error(`the form is not in the list: ${JSON.stringify(all.json)}`);
      form = saved;
      expect(page.url()).toContain(`/business/leadForms/${form.id}/edit`);
      expect(form.languages).toEqual(['en', 'es']);
      expect(form.steps).toHaveLength(3);
      expect(form.steps[0]?.questions.find((q) => q.id === 'phone')?.required).toBe(true);
      const choice = form.steps[1]?.questions[0];
      expect(choice?.type).toBe('choice');
      expect(choice?.required).toBe(true);
      expect(choice?.options.map((o) => [o.label.es, o.tag_id])).toEqual([
        ['Blanqueamiento', tagIds.whitening],
        ['Implantes', tagIds.implants],
      ]);
      const notes = form.steps[2]?.questions[0];
      expect(notes?.type).toBe('long_text');
      ids.choice = choice?.id ?? '';
      ids.whitening = choice?.options[0]?.id ?? '';
      ids.implants = choice?.options[1]?.id ?? '';
      ids.notes = notes?.id ?? '';
    });

    it('an active automation starts on the implants tag; the install shows the form and e-mails the staff', async () => {
      const made = await api<{ data: { id: number; active: boolean; tags: number[] } }>(
        admin,
        'POST',
        '/api/v1/automations',
        {
          name: 'Implants lead follow-up',
          trigger: { kind: 'new-tag', config: {}, start: 'tag' },
          blocks: [
            {
              id: 'tag',
              type: 'AddTag',
              config: { add: [tagIds.followUp], remove: [] },
              outputs: { next: null },
            },
          ],
          tags: [tagIds.implants],
          active: true,
        },
      );
      expect(made.status, JSON.stringify(made.json)).toBe(200);
      expect(made.json.data).toMatchObject({ active: true, tags: [tagIds.implants] });
      automationId = made.json.data.id;

      await setSettings(admin, {
        language: 'en',
        is_enable_lead_form: true,
        lead_form_id: form.id,
        notification_type: 'email',
        notification_email: NOTIFY,
      });
      const install = await api<{ data: { settings: Record<string, unknown> } }>(
        admin,
        'GET',
        `/api/v1/installs/${admin.installId}`,
      );
      expect(install.json.data.settings).toMatchObject({
        is_enable_lead_form: true,
        lead_form_id: form.id,
        notification_type: 'email',
        notification_email: NOTIFY,
      });
    });

    it('visitor A sends it in English through the widget on the business’s site (a second origin)', async () => {
      const site = await customerSite(admin);
      sites.push(site);
      expect(new URL(site.url).origin).not.toBe(new URL(p.url('/', HOST)).origin);
      const v = await visit(p, admin, { site });
      visitors.push(v);
      const { page } = v;
      await page.getByTestId('stn-trigger-lead').click();
      const lead = page.getByTestId('stn-lead-form');
      await lead.waitFor(WAIT);
      // The English words.
      expect(await page.getByTestId('stn-lead-step-of').textContent()).toBe(
        LEAD_UI_TEXTS.en.step.replace('{n}', '1').replace('{total}', '3'),
      );
      expect(await page.locator('label[for$="q-phone"]').textContent()).toContain('Phone number');
      const widget = page.locator('[data-stn-widget]');
      await sendLead(widget, A, ids.implants, 'Mornings, please.');
      await page.getByTestId('stn-lead-thanks').waitFor(WAIT);
      expect(await page.getByTestId('stn-lead-thanks').textContent()).toBe(LEAD_TEXT_DEFAULTS.en.thanks);
      expect(v.requests.filter((r) => r === 'POST /api/widget/v1/lead')).toHaveLength(1);
    });

    it('visitor B sends it in Spanish through an embedded form on another page (a third origin)', async () => {
      const created = await api<{ data: { id: number; embed_code: string } }>(
        admin,
        'POST',
        `/api/v1/installs/${admin.installId}/forms`,
        {
          name: 'Página de consulta',
          lead_form_id: form.id,
          settings: { language: 'es', show_title: true, use_install_style: true, redirect_url: '' },
        },
      );
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      const embedId = created.json.data.id;
      const site = await customerSite(admin, { embed: created.json.data.embed_code });
      sites.push(site);
      // The platform's origin, the business's site's, this page's: three.
      const origins = new Set([p.url('/', HOST), ...sites.map((s) => s.url)].map((u) => new URL(u).origin));
      expect(origins.size).toBe(3);

      const v = await visit(p, admin, { site });
      visitors.push(v);
      const placeholder = v.page.locator(`[data-stn-form="${embedId}"]`);
      await placeholder.getByTestId('stn-lead-form').waitFor(WAIT);
      // The Spanish words: the step line, the starter's labels, the builder's choice and its options.
      expect(await placeholder.getByTestId('stn-lead-step-of').textContent()).toBe(
        LEAD_UI_TEXTS.es.step.replace('{n}', '1').replace('{total}', '3'),
      );
      expect(await placeholder.locator('label[for$="q-phone"]').textContent()).toContain(
        'Número de teléfono',
      );
      await placeholder.getByTestId('stn-q-name').fill(B.name);
      await placeholder.getByTestId('stn-q-phone').fill(B.phone);
      await placeholder.getByTestId('stn-lead-next').click();
      const choice = placeholder.getByTestId(`stn-q-${ids.choice}`);
      await choice.waitFor(WAIT);
      expect(await choice.locator('legend').textContent()).toContain('¿Qué te interesa?');
      expect(await placeholder.locator(`label[for$="q-${ids.choice}-0"]`).textContent()).toBe(
        'Blanqueamiento',
      );
      await placeholder.getByTestId('stn-lead-back').click();
      await sendLead(placeholder, B, ids.whitening, 'Prefiero por la tarde');
      await placeholder.getByTestId('stn-lead-thanks').waitFor(WAIT);
      expect(await placeholder.getByTestId('stn-lead-thanks').textContent()).toBe(
        LEAD_TEXT_DEFAULTS.es.thanks,
      );
    });

    it('the contacts have their names and tags, the automation ran for A only, the staff were e-mailed of each', async () => {
      // The contacts, their names and the tags their options map to.
      const a = await contactOf(A.phone);
      const b = await contactOf(B.phone);
      if (!a || !b) throw new Error(`a contact is missing: ${JSON.stringify({ a, b })}`);
      expect([a.first_name, a.last_name, a.email]).toEqual(['Ana', 'Lead', A.email]);
      expect([b.first_name, b.last_name]).toEqual(['Lucía', 'Ruiz']);
      expect(tagNames(a)).toContain(TAG.implants);
      expect(tagNames(a)).not.toContain(TAG.whitening);
      expect(tagNames(b)).toEqual([TAG.whitening]);

      // The submissions: A's in English from the widget, B's in Spanish from the embedded form.
      type Submission = { source: string; language: string; lead_form_id: number; tags: { name: string }[] };
      const subs = async (contactId: number) => {
        const res = await api<{ data: Submission[] }>(
          admin,
          'GET',
          `/api/v1/leadSubmissions?contact_id=${contactId}`,
        );
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        return res.json.data.map((s) => [s.lead_form_id, s.source, s.language, s.tags.map((t) => t.name)]);
      };
      expect(await subs(a.id)).toEqual([[form.id, 'widget', 'en', [TAG.implants]]]);
      expect(await subs(b.id)).toEqual([[form.id, 'embed', 'es', [TAG.whitening]]]);

      // The automation started on A's implants tag: its run, and the tag its AddTag gives.
      await expect
        .poll(async () => (await runsOf(a.id)).map((r) => [r.trigger, r.status, r.contact_phone]), WAIT)
        .toEqual([['new-tag', 'completed', A.phone]]);
      await expect.poll(async () => tagNames(await contactOf(A.phone)), WAIT).toContain(TAG.followUp);

      // The staff's e-mail, once a submission, in the outbox (a SuperAdmin reads it; the job runs just after).
      type OutboxMail = { to: string; subject: string; text: string };
      const superAdmin = await apiAs(p, DEMO.superAdmin);
      let mails: OutboxMail[] = [];
      await expect
        .poll(async () => {
          const res = await superAdmin<{ data: OutboxMail[] }>(
            `/v1/mail-outbox?keyword=${encodeURIComponent(NOTIFY)}&perPage=50`,
          );
          mails = res.body.data ?? [];
          return mails.map((m) => m.subject).sort();
        }, WAIT)
        .toEqual([`New lead from ${A.name}`, `New lead from ${B.name}`]);
      expect(mails.every((m) => m.to === NOTIFY)).toBe(true);
      const ofA = mails.find((m) => m.subject.endsWith(A.name));
      const ofB = mails.find((m) => m.subject.endsWith(B.name));
      expect(ofA?.text).toContain('What are you interested in?: Implants');
      expect(ofA?.text).toContain(`${A.name} (${A.phone}) sent the form "${NAME}"`);
      expect(ofB?.text).toContain('¿Qué te interesa?: Blanqueamiento');

      // B's whitening tag starts nothing: by now (its mail sent after its tagging) no run, no follow-up tag.
      expect(await runsOf(b.id)).toEqual([]);
      expect(tagNames(await contactOf(B.phone))).not.toContain(TAG.followUp);
    });
  },
);
