// The merge field {review_link} (ADR 091): the Google review link of the contact's install, filled in a text
// sent from the inbox with a template and in an automation's SendMessage (both through the `reviews` port),
// empty for a contact whose install has no location. The location is tied through the API against the
// Google stand-in (in process: no GOOGLE_BASE_URL), the code taken from its consent page on our server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { type ActionsApp, actionsApp, addContact, runBlock } from '../automations/actions/test-support.ts';

let h: ActionsApp;
let ann: number;
let zoe: number;
const ANN = '+14155550171';
const ZOE = '+14155550172';
const LINK = 'https://search.google.com/local/writereview?placeid=ChIJsandboxDowntown01';
const REDIRECT = 'http://localhost:3000/setting/location/create';

async function api(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await h.t.app.inject({
    method,
    url,
    headers: bearer(h.adminToken),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  h = await actionsApp();
  ann = await addContact(h, { phone: ANN, first_name: 'Ann' });
  // A second install (with its number) and no location.
  const other = await h.install();
  zoe = await addContact(h, { phone: ZOE, first_name: 'Zoe', install_id: other.id });
  // Connect through the stand-in's consent page served by our own server, then tie a location.
  const { url, state } = await api(
    'GET',
    `/api/v1/google-integrations/authorize?redirect_uri=${encodeURIComponent(REDIRECT)}`,
  );
  expect(url).toMatch(/^\/api\/sandbox\/google\/o\/oauth2\/auth\?/);
  const page = await h.t.app.inject({ method: 'GET', url });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('google-sandbox-allow');
  const q = new URLSearchParams({
    client_id: 'local-stand-in',
    redirect_uri: REDIRECT,
    state,
    decision: 'allow',
  });
  const approve = `/api/sandbox/google/o/oauth2/approve?${q}`;
  // Back to a screen of the same host only (no open redirect).
  const foreign = await h.t.app.inject({ method: 'GET', url: approve, headers: { host: 'evil.example' } });
  expect(foreign.statusCode).toBe(400);
  const back = await h.t.app.inject({ method: 'GET', url: approve, headers: { host: 'localhost:3000' } });
  expect(back.statusCode).toBe(302);
  const code = new URL(String(back.headers.location)).searchParams.get('code');
  const integration = await api('POST', '/api/v1/google-integrations', {
    code,
    state,
    redirect_uri: REDIRECT,
  });
  const [first] = await api('GET', `/api/v1/businesses/locations-by-google/${integration.id}`);
  const location = await api('POST', '/api/v1/google-locations', {
    google_integration_id: integration.id,
    install_id: h.installId,
    location_id: first.location_id,
  });
  expect(location.review_link).toBe(LINK);
});
afterAll(async () => {
  await h?.close();
});

async function textsTo(phone: string): Promise<string[]> {
  await h.run(5_000);
  return h.sandbox.sentMessages({ to: phone }).map((m) => m.body);
}

describe('{review_link}', () => {
  it("is filled in a text sent from the inbox with a template: the contact's install's review link", async () => {
    const template = await api('POST', '/api/v1/templates', {
      name: 'Review',
      body: 'Thanks {first_name}! Review us: {review_link}',
    });
    const sent = await api('POST', `/api/v1/chats/contacts/${ann}/messages`, { template_id: template.id });
    expect(sent.body).toBe(`Thanks Ann! Review us: ${LINK}`);
    expect(await textsTo(ANN)).toContain(`Thanks Ann! Review us: ${LINK}`);
    // An install without a location: empty, or the fallback.
    const other = await api('POST', '/api/v1/templates', {
      name: 'Review 2',
      body: 'Thanks {first_name}! {review_link|See you soon.}',
    });
    const none = await api('POST', `/api/v1/chats/contacts/${zoe}/messages`, { template_id: other.id });
    expect(none.body).toBe('Thanks Zoe! See you soon.');
  });

  it("is filled in an automation's SendMessage", async () => {
    const j = await runBlock(
      h,
      'SendMessage',
      { body: 'Hi {first_name}, please review {business_name}: {review_link}' },
      ann,
    );
    expect(j.step).toMatchObject({ status: 'done' });
    expect(await textsTo(ANN)).toContain(`Hi Ann, please review Business A: ${LINK}`);
    const z = await runBlock(h, 'SendMessage', { body: 'Hi {first_name} [{review_link}]' }, zoe);
    expect(z.step).toMatchObject({ status: 'done' });
    expect(await textsTo(ZOE)).toContain('Hi Zoe []');
  });
});
