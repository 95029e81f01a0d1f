import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, apiFrom, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// SMS registration (issue 26) in Chromium against the real server and the sandbox carrier on a manual clock
// (the sandbox decides a submission 3 minutes of its clock later, ADR 092):
// - Acme's AgencyAdmin creates a Twilio profile, validates it and submits it for review; the banner asks for
//   the SMS registration; a broadcast of Bright Dental's is refused, saying why; the brand and a campaign
//   whose samples do not name the business are registered; the clock moves on: the brand is approved and
//   the campaign fails (30896) with its reason and a way to fix it; fixed and resubmitted, the clock moves
//   on, the status turns approved, the banner goes, Bright Dental sees its agency registered and a broadcast
//   starts;
// - a profile the carrier rejects (postal code 00000) shows the carrier's reasons and is fixed and
//   submitted again;
// - Bright Dental verifies a toll-free number: rejected (website https://rejected.example) with the reason
//   and error code, fixed and resubmitted, approved, and the number is then registered.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 30_000 };
const LEGAL = 'Acme Callbacks LLC';
/** A toll-free number for Bright Dental (888-555-01xx is kept for fiction). */
const TOLL_FREE = '+18885550142';

let page: Page;
type Api = Awaited<ReturnType<typeof apiAs>>;
let dental: Api;

/** Picks an option of a Mantine select. */
async function pick(testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Moves the sandbox's manual clock on (the Sandbox Phones API, as a business user of the same sandbox). */
async function advance(seconds: number) {
  const res = await dental('/v1/sandbox/clock/advance', { method: 'POST', body: { seconds } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The registration's state as the status panel shows it. */
const state = () => page.getByTestId('campaign-state').getAttribute('data-status');

/**
 * Moves the clock on past a review and presses Refresh status until the panel shows `target` (a brand is
 * decided after its profile, and the campaign is filed only once the brand is approved: a few rounds).
 */
async function refreshUntil(target: string) {
  for (let round = 0; round < 6; round++) {
    if ((await state()) === target) return;
    await advance(200);
    const synced = page.waitForResponse((r) => r.url().endsWith('/v1/twilio/sync-campaign'), WAIT);
    await page.getByTestId('campaign-refresh').click();
    expect((await synced).status()).toBe(200);
    await expect
      .poll(() => page.getByTestId('campaign-refresh').getAttribute('data-loading'), WAIT)
      .toBeNull();
  }
  expect(await state()).toBe(target);
}

/** Starts a broadcast of Bright Dental's to one US contact, from its broadcast number (made if it has none). */
async function broadcast(name: string) {
  const all = await dental<{ data: { active: boolean }[] }>('/v1/broadcasters/all');
  if (!all.body.data.some((b) => b.active)) {
    const numbers = await dental<{ data: { id: number; sms_enabled: boolean }[] }>('/v1/numbers?perPage=100');
    const number = numbers.body.data.find((n) => n.sms_enabled) ?? numbers.body.data[0];
    const made = await dental('/v1/broadcasters', { method: 'POST', body: { number_id: number?.id } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  }
  const tag = await dental<{ data: { id: number } }>('/v1/tags', { method: 'POST', body: { name } });
  expect(tag.status, JSON.stringify(tag.body)).toBe(200);
  const contact = await dental('/v1/contacts', {
    method: 'POST',
    body: {
      first_name: 'Reg',
      last_name: name,
      phone: `+1212555${String(100 + ++contacts)
        .slice(-4)
        .padStart(4, '0')}`,
      tag_ids: [tag.body.data.id],
    },
  });
  expect(contact.status, JSON.stringify(contact.body)).toBe(200);
  return dental('/v1/broadcasts', {
    method: 'POST',
    body: {
      name,
      body: 'Bright Dental: your checkup is due.',
      audience: { tag_ids: [tag.body.data.id] },
      start: true,
    },
  });
}
let contacts = 70;

async function fillProfile(postalCode: string, friendlyName: string) {
  await page.getByTestId('profile-legal-name').fill(LEGAL);
  await pick('profile-business-type', 'Limited liability company (LLC)');
  await pick('profile-industry', 'Professional services');
  await page.getByTestId('profile-ein').fill('12-3456789');
  await page.getByTestId('profile-website').fill('https://acme.example');
  await page.getByTestId('profile-street').fill('1 Market St');
  await page.getByTestId('profile-city').fill('San Francisco');
  await page.getByTestId('profile-region').fill('CA');
  await page.getByTestId('profile-postal-code').fill(postalCode);
  await page.getByTestId('profile-rep-first-name').fill('Olive');
  await page.getByTestId('profile-rep-last-name').fill('Owner');
  await page.getByTestId('profile-rep-email').fill('owner@acme.test');
  await page.getByTestId('profile-rep-phone').fill('+14155550100');
  await page.getByTestId('profile-rep-title').fill('Owner');
  await pick('profile-rep-position', 'CEO');
  await page.getByTestId('profile-friendly-name').fill(friendlyName);
  await page.getByTestId('profile-email').fill('owner@acme.test');
}

/** Saves the form as a draft, validates it (nothing missing) and submits it for review. */
async function saveValidateSubmit() {
  await page.getByTestId('profile-save').click();
  await page.waitForURL(/\/agency\/twilio-profile\/edit\/\d+$/, WAIT);
  await validateCompliant();
  await page.getByTestId('profile-register').click();
  await page.waitForURL(/\/agency\/twilio-profile$/, WAIT);
}

/** Validate: the carrier finds nothing missing (its answer is told when it did not answer so). */
async function validateCompliant() {
  const answer = page.waitForResponse((r) => /\/validate$/.test(r.url()), WAIT);
  await page.getByTestId('profile-validate').click();
  const res = await answer;
  expect(res.status(), await res.text()).toBe(200);
  await page.getByTestId('profile-compliant').waitFor(WAIT);
}

describe.skipIf(!hasChromium)('SMS registration in Chromium', () => {
  beforeAll(async () => {
    p = await startPlatform({ SANDBOX_CLOCK: 'manual' });
    dental = await apiAs(p, DEMO.dentalAdmin);
    page = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
  });
  afterAll(() => p?.stop());

  it('a profile is created, validated and submitted; the banner then asks for the SMS registration', async () => {
    // The sandbox holds nobody to registration before it begins: no banner yet.
    await page.goto(p.url('/agency/twilio-profile', HOST));
    await page.getByTestId('profiles-empty').waitFor(WAIT);
    await page.getByTestId('banners').waitFor({ state: 'attached', ...WAIT });
    expect(await page.locator('[data-testid^="banner-"]').count()).toBe(0);

    await page.getByTestId('profile-create').click();
    await page.waitForURL(/\/agency\/twilio-profile\/create$/, WAIT);
    // The contract's checks at the fields, before anything is sent; what was typed stays.
    await page.getByTestId('profile-legal-name').fill(LEGAL);
    await page.getByTestId('profile-ein').fill('12-34');
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByTestId('profile-ein').getAttribute('aria-invalid'), WAIT).toBe('true');
    expect(await page.getByTestId('profile-legal-name').inputValue()).toBe(LEGAL);

    await fillProfile('94107', 'Acme main profile');
    await saveValidateSubmit();
    const row = page.locator('[data-testid^="profile-row-"]', { hasText: 'Acme main profile' });
    await row.waitFor(WAIT);
    await expect
      .poll(() => row.locator('[data-testid^="profile-status-"]').getAttribute('data-status'), WAIT)
      .toMatch(/^(pending-review|in-review)$/);

    // Submitted: the agency is now held to registration, and the banner says what is next, with its link.
    const banner = page.getByTestId('banner-sms-registration');
    await banner.waitFor(WAIT);
    expect(await banner.textContent()).toBe(
      'In order to let businesses send SMS, Click Here to submit SMS Registration.',
    );
    await page.getByTestId('banner-sms-registration-link').click();
    await page.waitForURL(/\/agency\/sms-registration$/, WAIT);
    await page.getByTestId('campaign-form').waitFor(WAIT);
  });

  it('a campaign fails with its reason, is fixed and resubmitted, turns approved; the banner goes and a broadcast starts', async () => {
    // Registration begun and not approved: a broadcast does not start, and says why.
    const refused = await broadcast('Before registration');
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    const why = refused.body as { reason?: string; message?: string };
    expect(why.reason).toBe('registration.number_unregistered');
    expect(why.message).toContain('is not registered for texting');

    // The profile is chosen (the only submitted one) and the brand's e-mail comes from it.
    expect(await page.getByTestId('campaign-brand-email').inputValue()).toBe('owner@acme.test');
    await page
      .getByTestId('campaign-description')
      .fill('Appointment reminders and replies to callback requests for the clinics and shops we serve.');
    // The second sample does not name the business: the carriers refuse such a campaign (30896).
    await page
      .getByTestId('campaign-sample-0')
      .fill(`${LEGAL}: your appointment is confirmed for Tuesday at 3 pm. Reply STOP to opt out.`);
    await page.getByTestId('campaign-sample-1').fill('We missed your call: reply here and we call you back.');
    await page
      .getByTestId('campaign-flow')
      .fill('Visitors ask for a callback on the website widget and tick a box agreeing to receive texts.');
    await page.getByTestId('campaign-submit').click();
    await page.getByTestId('campaign-status').waitFor(WAIT);
    expect(await state()).toBe('brand-pending');

    await refreshUntil('failed');
    const failures = page.getByTestId('campaign-failures');
    await failures.waitFor(WAIT);
    expect(await failures.textContent()).toContain('(30896)');
    expect(await page.getByTestId('campaign-brand-status').getAttribute('data-status')).toBe('APPROVED');

    // Fix and resubmit: the same form, filled in from what was sent.
    await page.getByTestId('campaign-fix').click();
    await page.getByTestId('campaign-form').waitFor(WAIT);
    expect(await page.getByTestId('campaign-sample-1').inputValue()).toBe(
      'We missed your call: reply here and we call you back.',
    );
    await page
      .getByTestId('campaign-sample-1')
      .fill(`${LEGAL}: we missed your call. Reply here and we call you back.`);
    await page.getByTestId('campaign-submit').click();
    await page.getByTestId('campaign-form').waitFor({ state: 'detached', ...WAIT });
    expect(await state()).toBe('campaign-pending');

    await refreshUntil('approved');
    expect(await page.getByTestId('campaign-throughput').textContent()).toBe('75 messages a second');
    // Approved: the banner goes without a reload.
    await page.getByTestId('banner-sms-registration').waitFor({ state: 'detached', ...WAIT });

    // Bright Dental sees its agency registered, and its numbers may text.
    const business = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    await business.goto(p.url('/business/sms-registration', HOST));
    await expect
      .poll(() => business.getByTestId('business-registration-state').getAttribute('data-status'), WAIT)
      .toBe('approved');
    expect(await business.getByTestId('business-registration-text').textContent()).toBe(
      'Your agency is registered: your local numbers can text US phones.',
    );
    await business.context().close();

    // A broadcast now starts from Bright Dental's number.
    const started = await broadcast('After registration');
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((started.body as { data: { status: string } }).data.status).not.toBe('draft');
  });

  it("a rejected profile shows the carrier's reasons and is fixed and resubmitted", async () => {
    await page.goto(p.url('/agency/twilio-profile/create', HOST));
    await page.getByTestId('profile-legal-name').waitFor(WAIT);
    await fillProfile('00000', 'Acme second profile');
    await saveValidateSubmit();
    const row = page.locator('[data-testid^="profile-row-"]', { hasText: 'Acme second profile' });
    await row.waitFor(WAIT);
    const id = Number(((await row.getAttribute('data-testid')) ?? '').replace('profile-row-', ''));

    // The carrier decides on its clock; the statuses are followed (the sync the Refresh button asks for).
    await advance(200);
    const synced = await apiFrom(page, 'POST', '/v1/twilio/sync-campaign', {});
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    await page.reload();
    await expect
      .poll(() => page.getByTestId(`profile-status-${id}`).getAttribute('data-status'), WAIT)
      .toBe('twilio-rejected');
    expect(await page.getByTestId(`profile-reasons-${id}`).textContent()).toContain('address');

    await page.getByTestId(`profile-fix-${id}`).click();
    await page.waitForURL(new RegExp(`/agency/twilio-profile/edit/${id}$`), WAIT);
    await page.getByTestId(`profile-reasons-${id}`).waitFor(WAIT);
    expect(await page.getByTestId('profile-legal-name').inputValue()).toBe(LEGAL);
    await page.getByTestId('profile-postal-code').fill('94107');
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByTestId('profile-validate').isEnabled(), WAIT).toBe(true);
    await validateCompliant();
    await page.getByTestId('profile-register').click();
    await page.waitForURL(/\/agency\/twilio-profile$/, WAIT);
    await expect
      .poll(() => page.getByTestId(`profile-status-${id}`).getAttribute('data-status'), WAIT)
      .toMatch(/^(pending-review|in-review)$/);
  });

  it('a business verifies its toll-free number: rejected with the reason and code, fixed, resubmitted, approved', async () => {
    // A toll-free number on a new install of Bright Dental's (the agency gives it room for one).
    const agency = await apiAs(p, DEMO.acmeAgency);
    const list = await agency<{ data: { id: number; name: string }[] }>('/v1/business?keyword=Bright');
    const dentalId = list.body.data.find((b) => b.name === 'Bright Dental')?.id;
    const raised = await agency(`/v1/business/${dentalId}`, {
      method: 'PUT',
      body: { number_of_installs: 10 },
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    const made = await dental<{ data: { id: number } }>('/v1/installs', {
      method: 'POST',
      body: { name: 'Toll-free line', website: 'https://brightdental.example' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const installId = made.body.data.id;
    const bought = await dental(`/v1/installs/${installId}/purchase-phonenumber`, {
      method: 'POST',
      body: { phone_number: TOLL_FREE },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    /** The carrier decides on its clock; the agency's sync follows it. */
    const decide = async () => {
      await advance(200);
      const synced = await agency('/v1/twilio/sync-campaign', { method: 'POST', body: {} });
      expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    };

    const biz = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    await biz.goto(p.url('/business/sms-registration', HOST));
    const id = (s: string) => biz.getByTestId(`tollfree-${installId}-${s}`);
    await id('form').waitFor(WAIT);
    expect(
      await biz.getByTestId(`registration-number-state-${TOLL_FREE}`).getAttribute('data-registered'),
    ).toBe('false');
    // The business's name and the user's e-mail are filled in.
    expect(await id('business-name').inputValue()).toBe('Bright Dental');
    await id('website').fill('https://rejected.example');
    await id('use-cases').click({ force: true });
    await biz.getByRole('option', { name: 'Appointments', exact: true }).click();
    await biz.keyboard.press('Escape');
    await id('summary').fill('Appointment reminders for patients who booked online.');
    await id('sample').fill('Bright Dental: your cleaning is tomorrow at 10 am. Reply STOP to opt out.');
    await id('opt-in-urls').fill('https://brightdental.example/booking-consent.png');
    await id('submit').click();
    await expect
      .poll(() => id('status').getAttribute('data-status'), WAIT)
      .toMatch(/^(PENDING_REVIEW|IN_REVIEW)$/);

    await decide();
    await biz.reload();
    await expect.poll(() => id('status').getAttribute('data-status'), WAIT).toBe('TWILIO_REJECTED');
    expect(await id('rejected').textContent()).toContain('error 30446');

    // Fix and resubmit: the form comes back as it was sent.
    await id('fix').click();
    await id('form').waitFor(WAIT);
    expect(await id('website').inputValue()).toBe('https://rejected.example');
    await id('website').fill('https://brightdental.example');
    await id('submit').click();
    await expect
      .poll(() => id('status').getAttribute('data-status'), WAIT)
      .toMatch(/^(PENDING_REVIEW|IN_REVIEW)$/);

    await decide();
    await biz.reload();
    await expect.poll(() => id('status').getAttribute('data-status'), WAIT).toBe('TWILIO_APPROVED');
    await expect
      .poll(
        () => biz.getByTestId(`registration-number-state-${TOLL_FREE}`).getAttribute('data-registered'),
        WAIT,
      )
      .toBe('true');
    await biz.context().close();
  });
});
