import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFrom,
  DEMO,
  fieldError,
  hasChromium,
  openSection,
  type Platform,
  signedInPage,
  startPlatform,
} from './harness.ts';
import { addChoiceAndNotesSteps, fill, spanishOfNewStepsAndSave } from './lead-form-builder.ts';

// The lead form screens (issue 21) as the demo BusinessAdmin of Bright Dental: a form is built in the
// builder (English and Spanish, three steps, a choice whose options give tags), a missing Spanish label is
// shown at its field in the Spanish tab with nothing typed lost, it saves and reads back after a reload; the
// list's switch turns it off and on; an install shows it in its widget; an embedded form is made through the
// wizard (a bad redirect refused at its field) and its embed code shown; and the submissions sent with the
// install's key show on the contact's page and in the inbox's conversation.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 20_000 };
const NAME = 'Smile makeover quote';
const PHONE = '+14155550188';

type LeadForm = {
  id: number;
  name: string;
  active: boolean;
  languages: string[];
  steps: {
    id: string;
    questions: { id: string; type: string; options: { id: string; tag_id: number | null }[] }[];
  }[];
};

async function forms(page: Page): Promise<LeadForm[]> {
  return (await apiFrom<{ data: LeadForm[] }>(page, 'GET', '/v1/allLeadForms?perPage=100')).body.data;
}

describe.skipIf(!hasChromium)('lead form screens in Chromium', () => {
  let page: Page;
  let tags: { whitening: number; implants: number; lead: number };
  let installId = 0;
  let installName = '';
  let formId = 0;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
    const tag = async (name: string) => {
      const made = await apiFrom<{ data: { id: number } }>(page, 'POST', '/v1/tags', { name });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return made.body.data.id;
    };
    tags = {
      whitening: await tag('Wants whitening'),
      implants: await tag('Wants implants'),
      lead: await tag('Web lead'),
    };
    const installs = await apiFrom<{ data: { id: number; name: string }[] }>(page, 'GET', '/v1/installs/all');
    installId = installs.body.data[0]?.id ?? 0;
    installName = installs.body.data[0]?.name ?? '';
    expect(installId).toBeGreaterThan(0);
  });
  afterAll(() => p?.stop());

  it('builds a three-step form in two languages; a missing Spanish label is shown at its place, nothing lost; it saves and reads back', async () => {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.goto(p.url('/business/leadForms', HOST));
    // A search that finds nothing offers to create one, as an empty list does.
    await page.getByTestId('table-search').fill('makeover');
    await page.getByTestId('leadforms-empty').waitFor(WAIT);
    expect(await page.getByTestId('leadforms-empty').textContent()).toContain(
      'No lead form is named like "makeover"',
    );
    await page.getByTestId('leadforms-empty-add').click();
    await page.waitForURL('**/business/leadForms/create', WAIT);

    await fill(page, 'lf-name', NAME);
    await page.getByTestId('lf-lang-es').check();
    // The starter's questions have their Spanish words already.
    await page.getByTestId('lf-tab-es').click();
    expect(await page.getByTestId('lf-q-0-1-label-es').inputValue()).toBe('Número de teléfono');
    await page.getByTestId('lf-tab-en').click();
    await page.getByTestId('lf-tags').click();
    await page.getByRole('option', { name: 'Web lead', exact: true }).click();
    await page.keyboard.press('Escape');

    // Step 2: a choice whose options give tags (the preview draws it as the visitor will see it); step 3: a
    // long text.
    await addChoiceAndNotesSteps(page, { whitening: 'Wants whitening', implants: 'Wants implants' });

    // Saved with the Spanish words of the new questions missing: the first problem is shown at its field,
    // in the Spanish tab, on its step.
    await page.getByTestId('lf-save').click();
    await page.getByTestId('lf-problems').waitFor(WAIT);
    await expect.poll(() => page.getByTestId('lf-tab-es').getAttribute('aria-selected'), WAIT).toBe('true');
    await expect
      .poll(() => page.getByTestId('lf-step-tab-1').getAttribute('aria-selected'), WAIT)
      .toBe('true');
    expect(await fieldError(page, 'lf-q-1-0-label-es')).toContain('required');
    expect(page.url()).toContain('/business/leadForms/create');
    // Nothing typed is lost.
    expect(await page.getByTestId('lf-name').inputValue()).toBe(NAME);
    await page.getByTestId('lf-tab-en').click();
    expect(await page.getByTestId('lf-q-1-0-label-en').inputValue()).toBe('What are you interested in?');
    expect(await page.getByTestId('lf-opt-1-0-0-tag').inputValue()).toBe(String(tags.whitening));

    // The Spanish words, then it saves.
    await spanishOfNewStepsAndSave(page);
    formId = Number(/leadForms\/(\d+)\/edit/.exec(page.url())?.[1]);
    expect(formId).toBeGreaterThan(0);

    const saved = (await forms(page)).find((f) => f.id === formId);
    expect(saved?.name).toBe(NAME);
    expect(saved?.languages).toEqual(['en', 'es']);
    expect(saved?.steps).toHaveLength(3);
    const choice = saved?.steps[1]?.questions[0];
    expect(choice?.type).toBe('choice');
    expect(choice?.options.map((o) => o.tag_id)).toEqual([tags.whitening, tags.implants]);

    await page.reload();
    await expect.poll(() => page.getByTestId('lf-name').inputValue(), WAIT).toBe(NAME);
    await page.getByTestId('lf-step-tab-2').waitFor(WAIT);
    await page.getByTestId('lf-step-tab-1').click();
    expect(await page.getByTestId('lf-opt-1-0-1-tag').inputValue()).toBe(String(tags.implants));

    // A refused save (the server's 422, keyed by path) is shown at its field, on its step and in its language.
    await page.route(`**/api/v1/leadForm/${formId}`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 422,
            contentType: 'application/json',
            body: JSON.stringify({
              success: false,
              code: 'VALIDATION',
              message: 'The given data was invalid.',
              errors: { 'steps.2.questions.0.label.es': ['Demasiado parecido a otra pregunta.'] },
            }),
          })
        : route.continue(),
    );
    await fill(page, 'lf-q-1-0-label-en', 'What would you like?');
    await page.getByTestId('lf-save').click();
    await expect
      .poll(() => page.getByTestId('lf-step-tab-2').getAttribute('aria-selected'), WAIT)
      .toBe('true');
    await expect.poll(() => page.getByTestId('lf-tab-es').getAttribute('aria-selected'), WAIT).toBe('true');
    expect(await fieldError(page, 'lf-q-2-0-label-es')).toBe('Demasiado parecido a otra pregunta.');
    await page.unroute(`**/api/v1/leadForm/${formId}`);
    // Typing there takes the message away; the edit made before the refusal is still there, and saves.
    await fill(page, 'lf-q-2-0-label-es', '¿Algo más?');
    await expect
      .poll(() => page.getByTestId('lf-q-2-0-label-es').getAttribute('aria-invalid'), WAIT)
      .not.toBe('true');
    await page.getByTestId('lf-save').click();
    await expect
      .poll(async () => {
        const got = await apiFrom<{
          data: LeadForm & { steps: { questions: { label: Record<string, string> }[] }[] };
        }>(page, 'GET', `/v1/leadForm/${formId}`);
        return [
          got.body.data.steps[1]?.questions[0]?.label.en,
          got.body.data.steps[2]?.questions[0]?.label.es,
        ];
      }, WAIT)
      .toEqual(['What would you like?', '¿Algo más?']);
  });

  it('the list finds it, and its switch turns it off and on', async () => {
    await page.goto(p.url('/business/leadForms', HOST));
    await page.getByTestId(`leadform-name-${formId}`).waitFor(WAIT);
    expect(await page.getByTestId(`leadform-languages-${formId}`).textContent()).toBe('ENES');
    expect(await page.getByTestId(`leadform-submissions-${formId}`).textContent()).toBe('0');
    const toggle = page.getByTestId(`leadform-active-${formId}`);
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await expect.poll(async () => (await forms(page)).find((f) => f.id === formId)?.active, WAIT).toBe(false);
    await expect.poll(() => toggle.isChecked(), WAIT).toBe(false);
    await toggle.click({ force: true });
    await expect.poll(async () => (await forms(page)).find((f) => f.id === formId)?.active, WAIT).toBe(true);
    // The search finds it by name.
    await page.getByTestId('table-search').fill('makeover');
    await expect.poll(() => page.getByTestId('leadforms-table').locator('tbody tr').count(), WAIT).toBe(1);
  });

  it('an install shows it in its widget', async () => {
    await page.goto(p.url(`/business/installs/${installId}`, HOST));
    await openSection(page, 'install-section-lead-toggle', 'install-section-lead');
    await page.getByTestId('install-lead-form').selectOption(String(formId));
    // The demo install may show its own lead form already: switched on either way.
    const enabled = page.getByTestId('install-lead-enabled');
    if (!(await enabled.isChecked())) await enabled.click({ force: true });
    await expect.poll(() => enabled.isChecked(), WAIT).toBe(true);
    await page.getByTestId('install-save-lead').click();
    await expect
      .poll(async () => {
        const got = await apiFrom<{
          data: { settings: { is_enable_lead_form: boolean; lead_form_id: number | null } };
        }>(page, 'GET', `/v1/installs/${installId}`);
        return got.body.data.settings;
      }, WAIT)
      .toMatchObject({ is_enable_lead_form: true, lead_form_id: formId });
    // The lead forms list names the install using it.
    await page.goto(p.url('/business/leadForms', HOST));
    await expect
      .poll(() => page.getByTestId(`leadform-installs-${formId}`).textContent(), WAIT)
      .toContain(installName);
  });

  let embedId = 0;
  it('an embedded form is made through the wizard, a bad redirect refused at its field, and its embed code shown', async () => {
    await page.goto(p.url(`/business/installs/${installId}`, HOST));
    await page.getByTestId('install-forms-link').click();
    await page.waitForURL(`**/business/installs/${installId}/forms`, WAIT);
    await page.getByTestId('embedded-add').click();
    await page.waitForURL(`**/business/installs/${installId}/forms/create`, WAIT);

    // Next from an empty first step: the messages at their fields.
    await page.getByTestId('wizard-next').click();
    await fieldError(page, 'ef-name');
    await fill(page, 'ef-name', 'Contact page form');
    await page.getByTestId('ef-lead-form').selectOption(String(formId));
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('ef-language').selectOption('es');
    await page.getByTestId('ef-preview').getByText('Sobre ti').waitFor(WAIT);
    await page.getByTestId('wizard-next').click();
    await fill(page, 'ef-redirect', 'not a page');
    await page.getByTestId('wizard-next').click();
    expect(await fieldError(page, 'ef-redirect')).toBe('URL format is invalid.');
    await fill(page, 'ef-redirect', '');
    await page.getByTestId('ef-thanks').waitFor(WAIT);
    await page.getByTestId('wizard-next').click();
    const code = page.getByTestId('embedded-embed-code');
    await code.waitFor(WAIT);
    expect(await code.textContent()).toContain('data-stn-form');
    await page.getByTestId('wizard-confirm').click();
    await page.waitForURL(`**/business/installs/${installId}/forms`, WAIT);
    const list = await apiFrom<{ data: { id: number; name: string; settings: { language: string } }[] }>(
      page,
      'GET',
      `/v1/installs/${installId}/forms`,
    );
    const made = list.body.data.find((f) => f.name === 'Contact page form');
    expect(made?.settings.language).toBe('es');
    embedId = made?.id ?? 0;
    await page.getByTestId(`embedded-active-${embedId}`).waitFor({ state: 'attached', ...WAIT });
  });

  it("the submissions show on the contact's page and in the inbox's conversation", async () => {
    const form = (await forms(page)).find((f) => f.id === formId);
    const [about, smile, more] = form?.steps ?? [];
    const choice = smile?.questions[0];
    expect(about && choice && more).toBeTruthy();
    const install = await apiFrom<{ data: { key: string } }>(page, 'GET', `/v1/installs/${installId}`);
    const send = async (body: Record<string, unknown>) => {
      const res = await fetch(p.url('/api/widget/v1/lead'), {
        method: 'POST',
        headers: { 'x-install-key': install.body.data.key, 'content-type': 'application/json' },
        body: JSON.stringify({ form_id: formId, ...body }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { data: { id: number } }).data;
    };
    const answers = {
      name: 'Ana Souza',
      phone: PHONE,
      email: 'ana@example.com',
      [choice?.id ?? '']: [choice?.options[0]?.id ?? ''],
      [more?.questions[0]?.id ?? '']: 'Prefiero por la tarde',
    };
    const widget = await send({ language: 'es', answers, page_url: 'https://brightdental.example/' });
    const embedded = await send({
      embed_id: embedId,
      language: 'es',
      answers,
      page_url: 'https://brightdental.example/contact',
    });

    const subs = await apiFrom<{ data: { id: number; contact_id: number }[] }>(
      page,
      'GET',
      `/v1/leadSubmissions?lead_form_id=${formId}`,
    );
    const contactId = subs.body.data.find((s) => s.id === widget.id)?.contact_id ?? 0;
    expect(contactId).toBeGreaterThan(0);

    await page.goto(p.url(`/business/contacts/${contactId}`, HOST));
    const card = page.getByTestId(`lead-${widget.id}`);
    await card.waitFor(WAIT);
    expect(await card.getByTestId(`lead-${widget.id}-form`).textContent()).toBe(NAME);
    expect(await card.getAttribute('data-source')).toBe('widget');
    expect(await card.getByTestId(`lead-${widget.id}-answers`).textContent()).toContain(
      '¿Qué te interesa? Blanqueamiento',
    );
    const given = await card.getByTestId(`lead-${widget.id}-tags`).textContent();
    expect(given).toContain('Wants whitening');
    expect(given).toContain('Web lead');
    expect(await page.getByTestId(`lead-${embedded.id}`).getAttribute('data-source')).toBe('embed');

    await page.goto(p.url(`/business/messaging/${installId}?contact=${contactId}`, HOST));
    const inbox = page.getByTestId('conversation').getByTestId(`lead-${widget.id}`);
    await inbox.waitFor(WAIT);
    expect(await inbox.textContent()).toContain('Prefiero por la tarde');

    // The list's count opens the form's submissions, newest first, each leading to its contact.
    await page.goto(p.url('/business/leadForms', HOST));
    const count = page.getByTestId(`leadform-submissions-${formId}`);
    await count.waitFor(WAIT);
    expect(await count.textContent()).toBe('2');
    await count.click();
    const modal = page.getByTestId('leadform-submissions-modal');
    await modal.getByTestId(`lead-${widget.id}`).waitFor(WAIT);
    const shown = await modal
      .locator('[data-testid^="lead-"][data-source]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(shown).toEqual([`lead-${embedded.id}`, `lead-${widget.id}`]);
    await modal.getByTestId(`lead-${widget.id}-contact`).click();
    await page.waitForURL(`**/business/contacts/${contactId}`, WAIT);
  });
});
