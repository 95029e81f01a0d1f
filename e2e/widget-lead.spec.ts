import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { LEAD_MESSAGES, LEAD_TEXT_DEFAULTS, LEAD_UI_TEXTS } from '@stn/contracts/lead-form-public';
import { starterLeadForm, type TLeadFormInput } from '@stn/contracts/leadforms';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, startPlatform } from './harness.ts';
import {
  type Admin,
  ALL_WEEK,
  adminSession,
  api,
  customerSite,
  focusedInWidget,
  hostOf,
  type Site,
  setSettings,
  type Visitor,
  visit,
  WAIT,
} from './widget-helpers.ts';

// Lead forms on a business's own site (issue 21), another origin than the platform's: the LeadLabel trigger
// opens the install's lead form in the widget (three steps, English), filled in by keyboard alone with each
// step's errors, sent, thanked; axe-core finds no serious or critical violation in it; and an embedded form
// (a `data-stn-form` placeholder and the same widget.js) is filled in inline in Spanish, the server's
// refusal shown at its field, without the panel's app being loaded. The submissions and the contacts with
// their mapped tags are read back through the API.

let p: Platform;
let admin: Admin;
let site: Site;
let formId = 0;
const tags: Record<string, number> = {};
const visitors: Visitor[] = [];
const servers: { close: () => Promise<void> }[] = [];
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EN = LEAD_MESSAGES.en;
const ES = LEAD_MESSAGES.es;

async function visitor(opts: Parameters<typeof visit>[2] = {}): Promise<Visitor> {
  const v = await visit(p, admin, { site, ...opts });
  visitors.push(v);
  return v;
}

/**
 * Nothing the widget asked for was blocked: no failed request, no CORS or resource-policy error (`expected`:
 * problems the test caused on purpose).
 */
function expectNothingBlocked(v: Visitor, expected: string[] = []) {
  expect(
    v.problems.filter((x) => !x.includes('/api/widget/v1/events') && !expected.some((e) => x.includes(e))),
    v.problems.join('\n'),
  ).toEqual([]);
}

/** A page of another origin (127.0.0.1, a port of its own) with `body` as its content. */
async function servePage(body: string): Promise<Site> {
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Bright Dental</title>
<style>body{color:#f00;font:italic 30px serif;letter-spacing:4px;text-transform:uppercase}label,input{display:none}</style>
</head><body><h1>Pide tu cita</h1>${body}</body></html>`;
  const server = http.createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    } else {
      res.writeHead(req.url === '/favicon.ico' ? 204 : 404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const s = {
    url: `http://127.0.0.1:${port}/`,
    embed: body,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

/** Three steps in English and Spanish: about you (the starter's), the visit (a choice tagged per option, a date), and a last one. */
function leadForm(): TLeadFormInput {
  const starter = starterLeadForm(['en', 'es']);
  return {
    ...starter,
    name: 'New patients',
    steps: [
      ...starter.steps,
      {
        id: 'visit',
        title: { en: 'Your visit', es: 'Tu visita' },
        questions: [
          {
            id: 'service',
            type: 'choice',
            label: { en: 'What do you need?', es: '¿Qué necesitas?' },
            required: true,
            options: [
              { id: 'implants', label: { en: 'Implants', es: 'Implantes' }, tag_id: tags.implants },
              { id: 'whitening', label: { en: 'Whitening', es: 'Blanqueamiento' }, tag_id: tags.whitening },
            ],
          },
          {
            id: 'topics',
            type: 'choice',
            label: { en: 'Tell me about', es: 'Quiero saber de' },
            is_allow_multi_select: true,
            options: [
              { id: 'prices', label: { en: 'Prices', es: 'Precios' } },
              { id: 'hours', label: { en: 'Hours', es: 'Horarios' } },
            ],
          },
          { id: 'day', type: 'date', label: { en: 'Preferred day', es: 'Día preferido' } },
        ],
      },
      {
        id: 'last',
        title: { en: 'Almost done', es: 'Casi listo' },
        questions: [
          { id: 'notes', type: 'long_text', label: { en: 'Anything else?', es: '¿Algo más?' } },
          { id: 'visits', type: 'number', label: { en: 'Visits a year', es: 'Visitas al año' } },
          {
            id: 'consent',
            type: 'consent',
            label: { en: 'I agree to be contacted.', es: 'Acepto que me contacten.' },
            required: true,
          },
        ],
      },
    ],
    texts: { en: { title: 'Become a patient' }, es: { title: 'Hazte paciente' } },
  };
}

type Submission = {
  id: number;
  source: string;
  language: string;
  embedded_form_id: number | null;
  contact_id: number | null;
  answers: { question_id: string; value: string }[];
  tags: { id: number; name: string }[];
};

async function submissions(): Promise<Submission[]> {
  const res = await api<{ data: Submission[] }>(
    admin,
    'GET',
    `/api/v1/leadSubmissions?lead_form_id=${formId}`,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data;
}

async function contactTags(phone: string): Promise<string[]> {
  const res = await api<{ data: { phone: string; tags: { name: string }[] }[] }>(
    admin,
    'GET',
    `/api/v1/contacts?keyword=${encodeURIComponent(phone)}`,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json.data.find((c) => c.phone === phone)?.tags ?? []).map((t) => t.name).sort();
}

/** Runs axe-core on the widget's host or an embedded form's placeholder: its serious and critical violations. */
async function axeOn(page: Page, selector: string) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (sel) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document.querySelector(sel), { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target),
    }));
  }, selector);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The index of the step shown (in the page's widget, or in an embedded form's placeholder). */
const step = (within: Pick<Page, 'getByTestId'>) =>
  within.getByTestId('stn-lead-step').getAttribute('data-step');

describe.skipIf(!hasChromium)('lead forms in the widget and embedded on a business’s own site', () => {
  beforeAll(async () => {
    p = await startPlatform();
    admin = await adminSession(p);
    for (const name of ['implants', 'whitening']) {
      const res = await api<{ data: { id: number } }>(admin, 'POST', '/api/v1/tags', {
        name: `Lead ${name}`,
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      tags[name] = res.json.data.id;
    }
    const created = await api<{ data: { id: number } }>(admin, 'POST', '/api/v1/leadForm', leadForm());
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    formId = created.json.data.id;
    await setSettings(admin, {
      widget_type: 3,
      language: 'en',
      languageList: ['en', 'es'],
      hours: ALL_WEEK,
      timezone: 'UTC',
      is_enable_lead_form: true,
      lead_form_id: formId,
      // A palette that meets WCAG AA (the spec's default blue does not: ADR 043).
      colors: { primary: '#1565C0', text: '#FFFFFF' },
      triggerButton: { BackgroundColor: '#1565C0', HoverBackgroundColor: '#0D47A1', Color: '#FFFFFF' },
    });
    site = await customerSite(admin);
  });
  afterAll(async () => {
    for (const v of visitors) await v.context.close().catch(() => undefined);
    for (const s of servers) await s.close();
    await site?.close();
    await p?.stop();
  });

  it('the LeadLabel trigger opens the lead form, filled in by keyboard alone, each step checked, then thanked', async () => {
    const v = await visitor();
    const { page } = v;
    const phone = '+14155550171';
    await page.getByTestId('stn-trigger-lead').waitFor(WAIT);
    expect(await page.getByTestId('stn-trigger-lead').textContent()).toBe('Leave your details');

    // Tab from the page to the lead trigger, Enter opens the form, focus on its first field.
    await page.mouse.click(5, 300);
    let reached: string | null = null;
    for (let i = 0; i < 30 && reached !== 'stn-trigger-lead'; i++) {
      await page.keyboard.press('Tab');
      reached = await focusedInWidget(page);
    }
    expect(reached).toBe('stn-trigger-lead');
    await page.keyboard.press('Enter');
    await page.getByTestId('stn-lead-form').waitFor(WAIT);
    await expect.poll(() => focusedInWidget(page), WAIT).toBe('stn-q-name');
    expect(await page.getByTestId('stn-lead-step-of').textContent()).toBe('Step 1 of 3');
    expect(await step(page)).toBe('0');

    // Step 1: Enter without the phone, then a wrong one: the step's errors, focus on the phone.
    await page.keyboard.type('Ana Lead');
    await page.keyboard.press('Enter');
    await page.getByTestId('stn-lead-error-phone').waitFor(WAIT);
    expect(await page.getByTestId('stn-lead-error-phone').textContent()).toBe(EN['validation.required']);
    await expect.poll(() => focusedInWidget(page), WAIT).toBe('stn-q-phone');
    expect(await page.getByTestId('stn-q-phone').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('stn-q-phone').getAttribute('aria-describedby')).toBeTruthy();
    await page.keyboard.type('12');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('stn-lead-error-phone').textContent(), WAIT)
      .toBe(EN['validation.phone']);
    expect(await step(page)).toBe('0');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(phone);
    await page.keyboard.press('Tab');
    await page.keyboard.type('ana.lead@example.com');
    await page.keyboard.press('Enter');

    // Step 2: the choice is required; Space picks the focused option, arrows move within the radios.
    await expect.poll(() => step(page), WAIT).toBe('1');
    expect(await page.getByTestId('stn-lead-step-of').textContent()).toBe('Step 2 of 3');
    await expect.poll(() => focusedInWidget(page), WAIT).toBe('stn-q-service-implants');
    expect(await page.getByTestId('stn-q-name').count()).toBe(0);
    await page.keyboard.press('Enter');
    await page.getByTestId('stn-lead-error-service').waitFor(WAIT);
    expect(await page.getByTestId('stn-q-service').getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByTestId('stn-q-service-whitening').isChecked()).toBe(true);
    await page.keyboard.press('ArrowUp');
    expect(await page.getByTestId('stn-q-service-implants').isChecked()).toBe(true);
    // Tab leaves the radio group for the checkboxes: Space ticks one.
    await page.keyboard.press('Tab');
    expect(await focusedInWidget(page)).toBe('stn-q-topics-prices');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedInWidget(page)).toBe('stn-q-day');
    await page.keyboard.type('03152030');
    await page.keyboard.press('Enter');

    // Step 3: a number that is not one and the consent left out: both said, focus on the first.
    await expect.poll(() => step(page), WAIT).toBe('2');
    await expect.poll(() => focusedInWidget(page), WAIT).toBe('stn-q-notes');
    await page.keyboard.type('Mornings, please.');
    await page.keyboard.press('Tab');
    await page.keyboard.type('two');
    await page.keyboard.press('Enter');
    await page.getByTestId('stn-lead-error-consent').waitFor(WAIT);
    expect(await page.getByTestId('stn-lead-error-visits').textContent()).toBe(EN['validation.number']);
    expect(await page.getByTestId('stn-lead-error-consent').textContent()).toBe(EN['validation.consent']);
    await expect.poll(() => focusedInWidget(page), WAIT).toBe('stn-q-visits');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('2');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    // Back keeps what was typed; Next again.
    await page.keyboard.press('Tab');
    expect(await focusedInWidget(page)).toBe('stn-lead-back');
    // The step changes and its first field takes the focus in one go: a key pressed as the step appears
    // goes to that field, not to Back again (which went back twice on a busy machine). An observer sees
    // the focus as the new step is drawn, before the page does anything else.
    await page.evaluate(() => {
      const shadow = document.querySelector('[data-stn-widget]')?.shadowRoot;
      const seen: string[] = [];
      (window as unknown as { focusAsStepsChange: string[] }).focusAsStepsChange = seen;
      let last = '';
      new MutationObserver(() => {
        const now = shadow?.querySelector('[data-testid="stn-lead-step"]')?.getAttribute('data-step') ?? '';
        if (now === last) return;
        last = now;
        seen.push(`${now}: ${shadow?.activeElement?.getAttribute('data-testid') ?? 'nothing'}`);
      }).observe(shadow as ShadowRoot, { subtree: true, childList: true, attributes: true });
    });
    await page.keyboard.press('Enter');
    await expect.poll(() => step(page), WAIT).toBe('1');
    const focusAsStepsChange = await page.evaluate(
      () => (window as unknown as { focusAsStepsChange: string[] }).focusAsStepsChange,
    );
    expect(focusAsStepsChange[0]).toMatch(/^1: stn-q-/);
    expect(await page.getByTestId('stn-q-service-implants').isChecked()).toBe(true);
    expect(await page.getByTestId('stn-q-day').inputValue()).toBe('2030-03-15');
    await page.keyboard.press('Enter');
    await expect.poll(() => step(page), WAIT).toBe('2');
    expect(await page.getByTestId('stn-q-visits').inputValue()).toBe('2');
    expect(await page.getByTestId('stn-q-consent').isChecked()).toBe(true);
    // Shift-Tab and Tab reach Send; Enter sends.
    for (let i = 0; i < 6 && (await focusedInWidget(page)) !== 'stn-lead-submit'; i++)
      await page.keyboard.press('Tab');
    expect(await focusedInWidget(page)).toBe('stn-lead-submit');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedInWidget(page)).toBe('stn-lead-back');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    await page.getByTestId('stn-lead-thanks').waitFor(WAIT);
    expect(await page.getByTestId('stn-lead-thanks').textContent()).toBe(LEAD_TEXT_DEFAULTS.en.thanks);
    expect(await page.getByTestId('stn-lead-form').count()).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: LEAD_TEXT_DEFAULTS.en.thanks }).count()).toBe(1);
    expect(v.requests).toContain('GET /api/widget/v1/lead-form');
    expect(v.requests.filter((r) => r === 'POST /api/widget/v1/lead')).toHaveLength(1);
    expectNothingBlocked(v);

    // The submission and the contact, with the option's tag.
    const mine = (await submissions()).find((s) => s.source === 'widget');
    expect(mine?.language).toBe('en');
    expect(mine?.embedded_form_id).toBeNull();
    expect(mine?.answers.find((a) => a.question_id === 'phone')?.value).toContain('415');
    expect(mine?.tags.map((t) => t.name)).toContain('Lead implants');
    expect(await contactTags(phone)).toContain('Lead implants');
  });

  it('axe-core finds no serious or critical violation in the open lead form, with its errors and its choices; the panel’s language applies', async () => {
    const { page } = await visitor({ plain: true });
    await page.getByTestId('stn-trigger-lead').click();
    await page.getByTestId('stn-lead-form').waitFor(WAIT);
    expect(await axeOn(page, '[data-stn-widget]')).toEqual([]);
    await page.getByTestId('stn-lead-next').click();
    await page.getByTestId('stn-lead-error-phone').waitFor(WAIT);
    expect(await axeOn(page, '[data-stn-widget]')).toEqual([]);
    await page.getByTestId('stn-q-phone').fill('+14155550173');
    await page.getByTestId('stn-lead-next').click();
    await page.getByTestId('stn-q-service').waitFor(WAIT);
    await page.getByTestId('stn-lead-next').click();
    await page.getByTestId('stn-lead-error-service').waitFor(WAIT);
    expect(await axeOn(page, '[data-stn-widget]')).toEqual([]);
    // In Spanish (the panel's picker): the form's Spanish words, the answers kept.
    await page.getByTestId('stn-language').selectOption('es');
    await expect.poll(() => page.getByTestId('stn-lead-step-of').textContent(), WAIT).toBe('Paso 2 de 3');
    expect(await page.getByTestId('stn-q-service').locator('legend').textContent()).toContain(
      '¿Qué necesitas?',
    );
    expect(await page.getByTestId('stn-trigger-lead').textContent()).toBe('Deja tus datos');
    await page.getByTestId('stn-lead-back').click();
    expect(await page.getByTestId('stn-q-phone').inputValue()).toBe('+14155550173');
  });

  it('an embedded form fills its placeholder on another origin, in Spanish, in its own shadow root, without the app', async () => {
    const created = await api<{ data: { id: number; embed_code: string } }>(
      admin,
      'POST',
      `/api/v1/installs/${admin.installId}/forms`,
      {
        name: 'Página de citas',
        lead_form_id: formId,
        settings: { language: 'auto', show_title: true, use_install_style: true, redirect_url: '' },
      },
    );
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const embedId = created.json.data.id;
    expect(created.json.data.embed_code).toContain(`<div data-stn-form="${embedId}"></div>`);
    const page2 = await servePage(`<main><p>Déjanos tus datos.</p>${created.json.data.embed_code}</main>`);
    const v = await visitor({ site: page2, locale: 'es-ES' });
    const { page } = v;
    const placeholder = page.locator(`[data-stn-form="${embedId}"]`);
    const form = placeholder.getByTestId('stn-lead-form');
    await form.waitFor(WAIT);
    expect(await placeholder.locator('h2').textContent()).toBe('Hazte paciente');
    expect(await placeholder.getByTestId('stn-lead-step-of').textContent()).toBe(
      LEAD_UI_TEXTS.es.step.replace('{n}', '1').replace('{total}', '3'),
    );
    // The page's CSS does not reach in (its labels and inputs hidden, its red italic capitals).
    const label = placeholder.locator('label[for$="q-phone"]');
    expect(await label.isVisible()).toBe(true);
    expect(
      await label.evaluate((el) => {
        const cs = getComputedStyle(el);
        return [cs.color, cs.fontStyle, cs.textTransform, cs.letterSpacing];
      }),
    ).toEqual(['rgb(51, 51, 51)', 'normal', 'none', 'normal']);
    // The install's colours on its buttons (use_install_style).
    expect(
      await placeholder.getByTestId('stn-lead-next').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(21, 101, 192)');

    const phone = '+14155550172';
    await placeholder.getByTestId('stn-lead-next').click();
    expect(await placeholder.getByTestId('stn-lead-error-phone').textContent()).toBe(
      ES['validation.required'],
    );
    await placeholder.getByTestId('stn-q-name').fill('Lucía');
    await placeholder.getByTestId('stn-q-phone').fill(phone);
    await placeholder.getByTestId('stn-q-phone').press('Enter');
    await placeholder.getByTestId('stn-q-service-whitening').check();
    await placeholder.getByTestId('stn-lead-next').click();
    await placeholder.getByTestId('stn-q-consent').check();

    // The server refuses once (a refusal the widget cannot foresee): its message at its field, back on
    // the step that has it, focus there, nothing typed lost.
    let refused = false;
    await page.route('**/api/widget/v1/lead', async (route) => {
      if (route.request().method() !== 'POST' || refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 422,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': new URL(page2.url).origin },
        body: JSON.stringify({
          success: false,
          message: 'Revisa el formulario.',
          errors: { 'answers.phone': ['Ese número no recibe mensajes.'] },
        }),
      });
    });
    await placeholder.getByTestId('stn-lead-submit').click();
    await placeholder.getByTestId('stn-lead-error-phone').waitFor(WAIT);
    expect(await placeholder.getByTestId('stn-lead-error-phone').textContent()).toBe(
      'Ese número no recibe mensajes.',
    );
    expect(await step(placeholder)).toBe('0');
    expect(await placeholder.getByTestId('stn-q-phone').inputValue()).toBe(phone);
    await expect
      .poll(() =>
        page.evaluate(
          (sel) =>
            document.querySelector(sel)?.shadowRoot?.activeElement?.getAttribute('data-testid') ?? null,
          `[data-stn-form="${embedId}"]`,
        ),
      )
      .toBe('stn-q-phone');
    await placeholder.getByTestId('stn-lead-next').click();
    await placeholder.getByTestId('stn-lead-next').click();
    expect(await placeholder.getByTestId('stn-q-consent').isChecked()).toBe(true);
    await placeholder.getByTestId('stn-lead-submit').click();
    await placeholder.getByTestId('stn-lead-thanks').waitFor(WAIT);
    expect(await placeholder.getByTestId('stn-lead-thanks').textContent()).toBe(LEAD_TEXT_DEFAULTS.es.thanks);
    expect(refused).toBe(true);

    // The lead chunk came without the panel's app; the trigger buttons are there too (the same loader).
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(scripts.some((s) => /\/widget\/lead-[^/]+\.js$/.test(s))).toBe(true);
    expect(scripts.some((s) => /\/widget\/app-[^/]+\.js$/.test(s))).toBe(false);
    await hostOf(page).getByTestId('stn-trigger-lead').waitFor(WAIT);
    expect(v.requests).toContain(`GET /api/widget/v1/forms/${embedId}`);

    // A single-page site draws another page with a placeholder: STNWidget.forms() fills it, and leaves the
    // filled one (its thanks) as it was.
    await page.evaluate((id) => {
      const next = document.createElement('div');
      next.setAttribute('data-stn-form', String(id));
      next.id = 'later';
      document.body.appendChild(next);
      (window as unknown as { STNWidget: { forms: () => void } }).STNWidget.forms();
    }, embedId);
    await page.locator('#later').getByTestId('stn-lead-form').waitFor(WAIT);
    expect(await placeholder.getByTestId('stn-lead-thanks').count()).toBe(1);
    // The refusal the route above made up is the page's only failed response.
    expectNothingBlocked(v, ['status of 422']);

    const mine = (await submissions()).find((s) => s.source === 'embed');
    expect(mine?.embedded_form_id).toBe(embedId);
    expect(mine?.language).toBe('es');
    expect(mine?.tags.map((t) => t.name)).toContain('Lead whitening');
    expect(await contactTags(phone)).toContain('Lead whitening');
  });
});
