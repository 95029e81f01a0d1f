import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, apiFrom, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// The automation screens (issue 20) as the demo BusinessAdmin of Bright Dental: a flow is built on the
// canvas (trigger, Wait, SendMessage, Condition, AddTag; one branch joined by dragging between handles),
// activation shows the problems on their blocks, fixed it activates and reads back after a reload; the
// list's switch turns it off and on, a draft with problems is refused with them listed; duplicate; and a
// share link imports a copy into another business.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 20_000 };
const OTHER = { email: 'owner@smilestudio.test', password: 'smile-studio-1' };
const NAME = 'Missed call, then a text';
const TEMPLATES = { email: 'owner@templates.test', password: 'template-library-1' };
const TEMPLATE_NAME = 'Welcome a newly tagged contact';

type Automation = {
  id: number;
  name: string;
  active: boolean;
  share_token: string;
  webhook_url: string | null;
  blocks: unknown[];
};

async function automations(page: Page): Promise<Automation[]> {
  return (await apiFrom<{ data: Automation[] }>(page, 'GET', '/v1/automations?perPage=100')).body.data;
}

/** Picks an option of a Mantine select or multi-select, then closes its list. */
async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** Drags from one handle to another, as a person joins two blocks on the canvas. */
async function drag(page: Page, from: string, to: string) {
  const a = await page.getByTestId(from).boundingBox();
  const b = await page.getByTestId(to).boundingBox();
  if (!a || !b) throw new Error(`no handle ${a ? to : from}`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

/** Selects a node of the canvas by clicking its title. */
async function select(page: Page, node: string) {
  await page.getByTestId(`block-${node}`).locator('p').first().click();
  await expect.poll(() => page.getByTestId(`block-${node}`).getAttribute('data-selected'), WAIT).toBe('true');
}

describe.skipIf(!hasChromium)('automation screens in Chromium', () => {
  let page: Page;
  let tagName = '';
  let agency: Awaited<ReturnType<typeof apiAs>>;
  let dentalId = 0;

  beforeAll(async () => {
    p = await startPlatform();
    agency = await apiAs(p, DEMO.acmeAgency);
    const list = await agency<{ data: { id: number; name: string }[] }>('/v1/business?keyword=Bright');
    const dental = list.body.data.find((b) => b.name === 'Bright Dental');
    expect(dental).toBeDefined();
    dentalId = dental?.id ?? 0;
    /** A new business of the agency (free), answering its owner's API caller. */
    const business = async (name: string, who: typeof OTHER, extra: Record<string, unknown> = {}) => {
      const made = await agency('/v1/business', {
        method: 'POST',
        body: {
          name,
          free_fee: true,
          ...extra,
          owner: { email: who.email, first_name: name, password: who.password },
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return apiAs(p, who);
    };
    // Room for the automations this file makes, whatever the demo's plan leaves.
    const raised = await agency(`/v1/business/${dental?.id}`, {
      method: 'PUT',
      body: { number_of_automations: 20 },
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    // Another business of the agency, with an install (no install wizard in the way), to import into.
    const owner = await business('Smile Studio', OTHER);
    const install = await owner('/v1/installs', {
      method: 'POST',
      body: { name: 'Smile site', website: 'https://smile.example' },
    });
    expect(install.status, JSON.stringify(install.body)).toBe(200);

    // A template business of the agency, whose automation is in every business's gallery.
    const curator = await business('Template library', TEMPLATES, { is_template: true });
    const template = await curator('/v1/automations', {
      method: 'POST',
      body: {
        name: TEMPLATE_NAME,
        trigger: { kind: 'new-tag', config: {}, start: 'b1' },
        blocks: [{ id: 'b1', type: 'SendMessage', config: { body: 'Welcome aboard, {first_name|there}!' } }],
      },
    });
    expect(template.status, JSON.stringify(template.body)).toBe(200);

    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
    const tag = await apiFrom<{ data: { id: number; name: string } }>(page, 'POST', '/v1/tags', {
      name: 'Replied to follow-up',
    });
    expect(tag.status).toBe(200);
    tagName = tag.body.data.name;
  });
  afterAll(() => p?.stop());

  it('builds a flow on the canvas; activation shows the problems on their blocks; fixed, it activates and stays', async () => {
    // A screen tall enough for the whole canvas: the mouse joins handles only where it can reach them.
    await page.setViewportSize({ width: 1280, height: 1100 });
    await page.goto(p.url('/business/automation', HOST));
    await page.getByTestId('automations-table').waitFor(WAIT);
    await page.getByTestId('automations-add').click();
    await page.waitForURL('**/business/automation/create', WAIT);
    await page.getByTestId('automation-name').fill(NAME);
    // The trigger is picked first: each block picked from the palette follows the selected one.
    await page.getByTestId('trigger-kind').selectOption('missed-call');
    await page.getByTestId('palette-Wait').click();
    await page.getByTestId('block-form-b1').waitFor(WAIT);
    await page.getByTestId('cfg-amount').fill('1');
    await page.getByTestId('cfg-unit').selectOption('minutes');
    await page.getByTestId('palette-SendMessage').click();
    await page.getByTestId('block-form-b2').waitFor(WAIT);
    await page.getByTestId('palette-Condition').click();
    await page.getByTestId('block-form-b3').waitFor(WAIT);
    expect(await page.getByTestId('cfg-kind').inputValue()).toBe('replied');
    await page.getByTestId('palette-AddTag').click();
    await page.getByTestId('block-form-b4').waitFor(WAIT);
    // The Condition's "yes" led to AddTag; undone in its form, then joined again by dragging on the canvas.
    await select(page, 'b3');
    expect(await page.getByTestId('output-yes').inputValue()).toBe('b4');
    await page.getByTestId('output-yes').selectOption('');
    await expect.poll(() => page.locator('[data-testid="rf__edge-e-b3-yes"]').count(), WAIT).toBe(0);
    await drag(page, 'handle-b3-yes', 'handle-b4-in');
    await expect.poll(() => page.locator('[data-testid="rf__edge-e-b3-yes"]').count(), WAIT).toBe(1);
    await expect.poll(() => page.getByTestId('output-yes').inputValue(), WAIT).toBe('b4');

    // Activate: the text and the tags are missing; each problem is on its block and in the list.
    await page.getByTestId('automation-activate').click();
    await expect.poll(() => page.getByTestId('block-b2').getAttribute('data-problem'), WAIT).toBe('true');
    expect(await page.getByTestId('block-b4').getAttribute('data-problem')).toBe('true');
    expect(await page.getByTestId('block-b1').getAttribute('data-problem')).toBe('false');
    const listed = await page.getByTestId('automation-problems').textContent();
    expect(listed).toContain('b2: Write a message, pick a template or add an image.');
    expect(listed).toContain('b4: Choose at least one tag to add or remove.');
    // Nothing was sent, and nothing typed was lost.
    expect((await automations(page)).some((a) => a.name === NAME)).toBe(false);
    expect(await page.getByTestId('automation-name').inputValue()).toBe(NAME);

    await select(page, 'b2');
    await page.getByTestId('cfg-body').fill('Hi {first_name|there}, sorry we missed your call!');
    await expect.poll(() => page.getByTestId('block-b2').getAttribute('data-problem'), WAIT).toBe('false');
    await select(page, 'b4');
    await pick(page, 'cfg-add', tagName);
    await expect.poll(() => page.getByTestId('block-b4').getAttribute('data-problem'), WAIT).toBe('false');
    await page.getByTestId('automation-activate').click();
    await page.waitForURL(/\/business\/automation\/\d+$/, WAIT);
    await expect.poll(() => page.getByTestId('automation-status').textContent(), WAIT).toBe('Active');
    const saved = (await automations(page)).find((a) => a.name === NAME);
    expect(saved?.active).toBe(true);
    expect(saved?.blocks).toHaveLength(4);

    await page.reload();
    await expect.poll(() => page.getByTestId('automation-name').inputValue(), WAIT).toBe(NAME);
    expect(await page.getByTestId('automation-status').textContent()).toBe('Active');
    await select(page, 'b2');
    expect(await page.getByTestId('cfg-body').inputValue()).toBe(
      'Hi {first_name|there}, sorry we missed your call!',
    );
    // The text as it is now, sent to one phone for a try.
    await page.getByTestId('test-sms-to').fill('+14155550123');
    await page.getByTestId('test-sms-send').click();
    await page.getByTestId('test-sms-sent').waitFor(WAIT);
    await select(page, 'b1');
    expect(await page.getByTestId('cfg-unit').inputValue()).toBe('minutes');
    expect(await page.getByTestId('block-b1').textContent()).toContain('1 minute');
    expect(await page.getByTestId('block-b1').textContent()).not.toContain('minutes');
    expect(await page.locator('[data-testid="rf__edge-e-b3-yes"]').count()).toBe(1);
    // A saved automation shows on each block the contacts there now (none yet), and its runs.
    await expect.poll(() => page.getByTestId('block-b1-count').getAttribute('data-at'), WAIT).toBe('0');
    await page.getByTestId('automation-tab-runs').click();
    await expect
      .poll(() => page.getByTestId('runs-table').textContent(), WAIT)
      .toContain('No contact has entered yet.');
    expect(page.url()).toMatch(/\?view=runs$/);
  });

  it('a webhook trigger shows its unique URL, which the saved draft keeps', async () => {
    await page.goto(p.url('/business/automation/create', HOST));
    await page.getByTestId('automation-name').fill('Leads from our site');
    await page.getByTestId('trigger-kind').selectOption('webhook');
    const field = page.getByTestId('trigger-webhook-url');
    await expect.poll(() => field.inputValue(), WAIT).toMatch(/^https?:\/\/.+\/[\w-]{16,}$/);
    const shown = await field.inputValue();
    expect(await page.getByTestId('trigger-map-phone').inputValue()).toBe('phone');
    await page.getByTestId('automation-save').click();
    await page.waitForURL(/\/business\/automation\/\d+$/, WAIT);
    const saved = (await automations(page)).find((a) => a.name === 'Leads from our site');
    expect(saved?.webhook_url).toBe(shown);
    await expect.poll(() => field.inputValue(), WAIT).toBe(shown);
  });

  it("the list's switch turns it off and on; a draft with problems is refused with them listed", async () => {
    const made = (await automations(page)).find((a) => a.name === NAME);
    await page.goto(p.url('/business/automation', HOST));
    const toggle = page.getByTestId(`automation-active-${made?.id}`);
    await toggle.waitFor({ state: 'attached', ...WAIT });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await expect
      .poll(async () => (await automations(page)).find((a) => a.id === made?.id)?.active, WAIT)
      .toBe(false);
    await expect.poll(() => toggle.isChecked(), WAIT).toBe(false);
    await toggle.click({ force: true });
    await expect
      .poll(async () => (await automations(page)).find((a) => a.id === made?.id)?.active, WAIT)
      .toBe(true);

    const draft = await apiFrom<{ data: Automation }>(page, 'POST', '/v1/automations', {
      name: 'Unfinished keyword reply',
      trigger: { kind: 'sms-keyword', config: { keywords: [] }, start: null },
      blocks: [],
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    await page.reload();
    const off = page.getByTestId(`automation-active-${draft.body.data.id}`);
    await off.waitFor({ state: 'attached', ...WAIT });
    await off.click({ force: true });
    await page.getByTestId('toggle-problems').waitFor(WAIT);
    expect(await page.getByTestId('toggle-problems').textContent()).toContain('Enter at least one keyword.');
    await page.getByTestId('toggle-problems-edit').click();
    await page.waitForURL(`**/business/automation/${draft.body.data.id}`, WAIT);
    expect((await automations(page)).find((a) => a.id === draft.body.data.id)?.active).toBe(false);
  });

  it('duplicate: a copy appears in the list, inactive', async () => {
    const made = (await automations(page)).find((a) => a.name === NAME);
    await page.goto(p.url('/business/automation', HOST));
    await page.getByTestId(`automation-more-${made?.id}`).click();
    await page.getByTestId(`automation-duplicate-${made?.id}`).click();
    await expect
      .poll(async () => (await automations(page)).find((a) => a.name === `${NAME} (copy)`)?.active, WAIT)
      .toBe(false);
    const copy = (await automations(page)).find((a) => a.name === `${NAME} (copy)`);
    await expect
      .poll(() => page.getByTestId(`automation-name-${copy?.id}`).textContent(), WAIT)
      .toBe(`${NAME} (copy)`);
  });

  it("the server's refusal (the plan's active limit) is listed in the editor, and nothing is lost", async () => {
    const copy = (await automations(page)).find((a) => a.name === `${NAME} (copy)`);
    const active = (await automations(page)).filter((a) => a.active).length;
    const limited = await agency(`/v1/business/${dentalId}`, {
      method: 'PUT',
      body: { number_of_automations: active },
    });
    expect(limited.status).toBe(200);
    try {
      await page.goto(p.url(`/business/automation/${copy?.id}`, HOST));
      await expect.poll(() => page.getByTestId('automation-name').inputValue(), WAIT).toBe(`${NAME} (copy)`);
      await page.getByTestId('automation-name').fill('Renamed copy');
      await page.getByTestId('automation-activate').click();
      await expect
        .poll(() => page.getByTestId('automation-problems').textContent(), WAIT)
        .toContain(`Your plan allows ${active} active automations.`);
      expect(await page.getByTestId('automation-name').inputValue()).toBe('Renamed copy');
      expect((await automations(page)).find((a) => a.id === copy?.id)?.active).toBe(false);
    } finally {
      await agency(`/v1/business/${dentalId}`, { method: 'PUT', body: { number_of_automations: 20 } });
    }
  });

  it("share: the link opens another business's import page, which imports a copy and opens it", async () => {
    const made = (await automations(page)).find((a) => a.name === NAME);
    await page.goto(p.url('/business/automation', HOST));
    await page.getByTestId(`automation-more-${made?.id}`).click();
    await page.getByTestId(`automation-share-${made?.id}`).click();
    const link = await page.getByTestId('automation-share-link').inputValue();
    expect(link).toMatch(/\/business\/automation\/[\w-]+\/share$/);

    const other = await signedInPage(p, OTHER, '**/business/**', HOST);
    await other.goto(link);
    await expect.poll(() => other.getByTestId('share-name').textContent(), WAIT).toBe(NAME);
    await other.getByTestId('share-import').click();
    await other.waitForURL(/\/business\/automation\/\d+$/, WAIT);
    await expect.poll(() => other.getByTestId('automation-name').inputValue(), WAIT).toBe(NAME);
    expect(await other.getByTestId('automation-status').textContent()).toBe('Inactive');
    const theirs = await automations(other);
    expect(theirs.map((a) => a.name)).toEqual([NAME]);
    await other.context().close();
  });

  it('templates gallery: "Use" copies a template into the business and opens it in the editor', async () => {
    await page.goto(p.url('/business/automation', HOST));
    const gallery = page.getByTestId('automation-templates');
    await gallery.waitFor(WAIT);
    const card = gallery.locator('[data-testid^="template-"]', { hasText: TEMPLATE_NAME }).first();
    await card.locator('[data-testid^="template-use-"]').click();
    await page.waitForURL(/\/business\/automation\/\d+$/, WAIT);
    await expect.poll(() => page.getByTestId('automation-name').inputValue(), WAIT).toBe(TEMPLATE_NAME);
    expect(await page.getByTestId('automation-status').textContent()).toBe('Inactive');
    await select(page, 'b1');
    expect(await page.getByTestId('cfg-body').inputValue()).toBe('Welcome aboard, {first_name|there}!');
    expect((await automations(page)).filter((a) => a.name === TEMPLATE_NAME)).toHaveLength(1);
  });

  it("a contact's page adds it to an automation; its journey shows in the runs, on the blocks and on the contact; stop ends it", async () => {
    const made = await apiFrom<{ data: { id: number } }>(page, 'POST', '/v1/contacts', {
      phone: '+14155550177',
      first_name: 'Jo',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await page.goto(p.url(`/business/contacts/${made.body.data.id}`, HOST));
    const card = page.getByTestId('contact-automations');
    await card.waitFor(WAIT);
    // Nothing picked: said in place, nothing sent.
    await page.getByTestId('contact-add-automation-add').click();
    await expect.poll(() => card.textContent(), WAIT).toContain('Pick an automation.');
    // The demo's active "Missed call follow-up": a Wait of a minute, then a text.
    await pick(page, 'contact-add-automation-pick', 'Missed call follow-up');
    await page.getByTestId('contact-add-automation-add').click();
    await expect.poll(() => card.textContent(), WAIT).toContain('Missed call follow-up');
    // Its journey starts (in progress) and settles at the Wait within moments: waited for, not raced.
    await expect.poll(() => card.textContent(), WAIT).toContain('Waiting');

    const automation = (await automations(page)).find((a) => a.name === 'Missed call follow-up');
    await page.goto(p.url(`/business/automation/${automation?.id}?view=runs`, HOST));
    const runs = page.getByTestId('runs-table');
    await expect.poll(() => runs.textContent(), WAIT).toContain('+14155550177');
    expect(await runs.textContent()).toContain('Waiting');
    await runs.locator('[data-testid^="run-journey-"]').first().click();
    const journey = page.getByTestId('run-journey');
    await journey.waitFor(WAIT);
    expect(await journey.textContent()).toContain('Added directly');
    expect(await journey.textContent()).toContain('wait · Wait');
    await page.keyboard.press('Escape');
    await journey.waitFor({ state: 'detached', ...WAIT });
    // On the canvas: one contact at the Wait now.
    await page.getByTestId('automation-tab-flow').click();
    await expect.poll(() => page.getByTestId('block-wait-count').getAttribute('data-at'), WAIT).toBe('1');
    await page.getByTestId('automation-tab-runs').click();
    await runs.locator('[data-testid^="run-stop-"]').first().click();
    await page.getByTestId('run-stop-ok').click();
    await expect.poll(() => runs.textContent(), WAIT).toContain('Stopped');
    await expect
      .poll(
        async () =>
          (
            await apiFrom<{ data: { status: string }[] }>(
              page,
              'GET',
              `/v1/automations/contact/${made.body.data.id}/runs`,
            )
          ).body.data[0]?.status,
        WAIT,
      )
      .toBe('stopped');
  });
});
