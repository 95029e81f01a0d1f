// Google Business locations (ADR 091) against the Google stand-in started here as a real HTTP server on
// 127.0.0.1 (GOOGLE_BASE_URL): the production path (outbound guard, HTTP, OAuth exchange, Business Profile
// calls). Connect with a code from the stand-in's consent, list the account's locations, tie one to an
// install; refusals (a bad code, a state of another business, an install of another business, a location
// the account does not have, a second location on one install); tokens never answered; an expired access
// token is refreshed first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, useSuite } from '../../../test/helpers.ts';
import { SANDBOX_LOCATIONS } from '../../platform/google/sandbox.ts';
import { type GoogleStandInServer, startGoogleStandIn } from '../../platform/google/sandbox-server.ts';

let google: GoogleStandInServer;
const env: Record<string, string> = {};
beforeAll(async () => {
  google = await startGoogleStandIn({ clientId: 'client-1', clientSecret: 'secret-1' });
  env.GOOGLE_BASE_URL = `${google.url}/`;
  env.GOOGLE_CLIENT_ID = 'client-1';
  env.GOOGLE_CLIENT_SECRET = 'secret-1';
});
afterAll(async () => {
  await google?.close();
});

const c = useSuite({ env });
const REDIRECT = 'http://localhost:3000/setting/location/create';
const [DOWNTOWN, WESTSIDE] = SANDBOX_LOCATIONS;
let installA: number;
let installA2: number;
let installB: number;

async function addInstall(businessId: number, agencyId: number, name: string): Promise<number> {
  const [row] = await rows(
    c.t,
    'insert into installs (agency_id, business_id, key, name) values ($1, $2, $3, $4) returning id',
    [agencyId, businessId, `key-${name}`, name],
  );
  return row.id;
}

beforeAll(async () => {
  installA = await addInstall(c.seed.a.business.id, c.seed.a.agency.id, 'Downtown site');
  installA2 = await addInstall(c.seed.a.business.id, c.seed.a.agency.id, 'Westside site');
  installB = await addInstall(c.seed.b.business.id, c.seed.b.agency.id, 'B site');
});

/** Starts a sign-in as the user, goes through the stand-in's consent page, and answers code and state. */
async function consent(email: string, base = google.url) {
  const token = await c.token(email);
  const start = await c.api.get(
    token,
    `/api/v1/google-integrations/authorize?redirect_uri=${encodeURIComponent(REDIRECT)}`,
  );
  expect(start.statusCode, start.body).toBe(200);
  const { url, state } = start.json().data as { url: string; state: string };
  const auth = new URL(url);
  expect(`${auth.origin}${auth.pathname}`).toBe(`${google.url}/o/oauth2/auth`);
  expect(auth.searchParams.get('client_id')).toBe('client-1');
  expect(auth.searchParams.get('redirect_uri')).toBe(REDIRECT);
  expect(auth.searchParams.get('access_type')).toBe('offline');
  expect(auth.searchParams.get('state')).toBe(state);
  // The consent page, then its Allow: back to our screen with a code.
  const page = await fetch(`${base}/o/oauth2/auth${auth.search}`);
  expect(await page.text()).toContain('google-sandbox-allow');
  const approve = new URLSearchParams({
    client_id: 'client-1',
    redirect_uri: REDIRECT,
    state,
    decision: 'allow',
  });
  const back = await fetch(`${base}/o/oauth2/approve?${approve}`, { redirect: 'manual' });
  expect(back.status).toBe(302);
  const location = new URL(back.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe(state);
  return { token, code: location.searchParams.get('code') ?? '', state };
}

let integrationId: number;

describe('google-integrations', () => {
  it('exchanges the code, reads the account and keeps the refresh token sealed, never answered', async () => {
    const { token, code, state } = await consent(c.seed.a.businessAdmin.email);
    google.standIn.seen.length = 0;
    const res = await c.api.post(token, '/api/v1/google-integrations', {
      code,
      state,
      redirect_uri: REDIRECT,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      account_id: 'accounts/1093728465012',
      account_name: 'Bright Dental (Google demo)',
      email: 'owner@google-demo.test',
    });
    integrationId = res.json().data.id;
    expect(res.body).not.toMatch(/ya29|1\/\/sb|refresh_token|access_token/);
    // The exchange at the token endpoint with the client's secret, then the account and the e-mail.
    expect(google.standIn.seen.map((s) => `${s.method} ${s.path}${s.grant ? ` ${s.grant}` : ''}`)).toEqual(
      expect.arrayContaining([
        'POST /token authorization_code',
        'GET /v1/accounts',
        'GET /oauth2/v3/userinfo',
      ]),
    );
    const [stored] = await rows(
      c.t,
      'select refresh_token, access_token from google_integrations where id = $1',
      [integrationId],
    );
    expect(stored.refresh_token).toMatch(/^enc:v1:/);
    expect(stored.access_token).toMatch(/^enc:v1:/);
    const list = await c.api.get(token, '/api/v1/google-integrations');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([res.json().data]);
    expect(list.body).not.toMatch(/ya29|1\/\/sb|enc:v1/);
  });

  it('refuses a bad code (422, nothing stored) and a code used twice', async () => {
    const { token, code, state } = await consent(c.seed.a.businessAdmin.email);
    const bad = await c.api.post(token, '/api/v1/google-integrations', {
      code: '4/not-a-code',
      state,
      redirect_uri: REDIRECT,
    });
    expect(bad.statusCode, bad.body).toBe(422);
    expect(bad.json().errors.code).toBeDefined();
    const ok = await c.api.post(token, '/api/v1/google-integrations', {
      code,
      state,
      redirect_uri: REDIRECT,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // The same account again: the one connection, its tokens replaced.
    expect(ok.json().data.id).toBe(integrationId);
    const again = await c.api.post(token, '/api/v1/google-integrations', {
      code,
      state,
      redirect_uri: REDIRECT,
    });
    expect(again.statusCode, again.body).toBe(422);
    expect(await rows(c.t, 'select id from google_integrations')).toHaveLength(1);
  });

  it("refuses a state signed for another business's user", async () => {
    const { code, state } = await consent(c.seed.a.businessAdmin.email);
    const tokenB = await c.token(c.seed.b.businessAdmin.email);
    const res = await c.api.post(tokenB, '/api/v1/google-integrations', {
      code,
      state,
      redirect_uri: REDIRECT,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.state).toBeDefined();
    expect((await c.api.get(tokenB, '/api/v1/google-integrations')).json().data).toEqual([]);
  });

  it("lists the account's locations with their review links; another business's connection is a 404", async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const res = await c.api.get(token, `/api/v1/businesses/locations-by-google/${integrationId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      {
        location_id: DOWNTOWN?.name,
        title: 'Bright Dental Downtown',
        address: '120 Main Street, Springfield IL 62701',
        place_id: 'ChIJsandboxDowntown01',
        review_link: 'https://search.google.com/local/writereview?placeid=ChIJsandboxDowntown01',
      },
      expect.objectContaining({ location_id: WESTSIDE?.name, place_id: 'ChIJsandboxWestside02' }),
    ]);
    const tokenB = await c.token(c.seed.b.businessAdmin.email);
    expect(
      (await c.api.get(tokenB, `/api/v1/businesses/locations-by-google/${integrationId}`)).statusCode,
    ).toBe(404);
    // A business user who is not its admin may not.
    const user = await c.token(c.seed.a.businessUser.email);
    expect((await c.api.get(user, '/api/v1/google-integrations')).statusCode).toBe(403);
  });
});

describe('google-locations', () => {
  let locationId: number;

  it('ties a location to an install: title, address, place id and review link read from Google', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const res = await c.api.post(token, '/api/v1/google-locations', {
      google_integration_id: integrationId,
      install_id: installA,
      location_id: DOWNTOWN?.name,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      install_id: installA,
      install_name: 'Downtown site',
      title: 'Bright Dental Downtown',
      place_id: 'ChIJsandboxDowntown01',
      review_link: 'https://search.google.com/local/writereview?placeid=ChIJsandboxDowntown01',
    });
    locationId = res.json().data.id;
    const one = await c.api.get(token, `/api/v1/google-locations/${locationId}`);
    expect(one.json().data).toEqual(res.json().data);
    expect((await c.api.get(token, '/api/v1/google-locations')).json().data).toEqual([res.json().data]);
  });

  it('refuses an install of another business, a second location on an install, and an unknown location', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const post = (body: object) =>
      c.api.post(token, '/api/v1/google-locations', {
        google_integration_id: integrationId,
        install_id: installA2,
        location_id: WESTSIDE?.name,
        ...body,
      });
    const other = await post({ install_id: installB });
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().errors.install_id).toBeDefined();
    const taken = await post({ install_id: installA });
    expect(taken.statusCode, taken.body).toBe(422);
    expect(taken.json().errors.install_id).toBeDefined();
    const unknown = await post({ location_id: 'locations/999' });
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(unknown.json().errors.location_id).toBeDefined();
    const tokenB = await c.token(c.seed.b.businessAdmin.email);
    const foreign = await c.api.post(tokenB, '/api/v1/google-locations', {
      google_integration_id: integrationId,
      install_id: installB,
      location_id: WESTSIDE?.name,
    });
    expect(foreign.statusCode, foreign.body).toBe(422);
    expect(foreign.json().errors.google_integration_id).toBeDefined();
    expect(await rows(c.t, 'select id from google_locations')).toHaveLength(1);
  });

  it('changes a location (another place, another install) and deletes it; another business gets 404', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const tokenB = await c.token(c.seed.b.businessAdmin.email);
    const body = { google_integration_id: integrationId, install_id: installA2, location_id: WESTSIDE?.name };
    expect((await c.api.put(tokenB, `/api/v1/google-locations/${locationId}`, body)).statusCode).toBe(404);
    expect((await c.api.get(tokenB, `/api/v1/google-locations/${locationId}`)).statusCode).toBe(404);
    const res = await c.api.put(token, `/api/v1/google-locations/${locationId}`, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      install_id: installA2,
      review_link: 'https://search.google.com/local/writereview?placeid=ChIJsandboxWestside02',
    });
    expect((await c.api.del(tokenB, `/api/v1/google-locations/${locationId}`)).statusCode).toBe(404);
    expect((await c.api.del(token, `/api/v1/google-locations/${locationId}`)).statusCode).toBe(200);
    expect((await c.api.get(token, `/api/v1/google-locations/${locationId}`)).statusCode).toBe(404);
  });

  it('disconnecting removes the connection and its locations; another business gets 404', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const made = await c.api.post(token, '/api/v1/google-locations', {
      google_integration_id: integrationId,
      install_id: installA,
      location_id: DOWNTOWN?.name,
    });
    expect(made.statusCode, made.body).toBe(200);
    const tokenB = await c.token(c.seed.b.businessAdmin.email);
    expect((await c.api.del(tokenB, `/api/v1/google-integrations/${integrationId}`)).statusCode).toBe(404);
    expect((await c.api.del(token, `/api/v1/google-integrations/${integrationId}`)).statusCode).toBe(200);
    expect((await c.api.get(token, '/api/v1/google-locations')).json().data).toEqual([]);
    expect((await c.api.get(token, '/api/v1/google-integrations')).json().data).toEqual([]);
  });
});

describe('an expired access token', () => {
  it('is refreshed with the sealed refresh token before the call, and kept until it expires', async () => {
    // The stored expiry is put in the past: what an hour's wait does.
    const { token, code, state } = await consent(c.seed.a.businessAdmin.email);
    const res = await c.api.post(token, '/api/v1/google-integrations', {
      code,
      state,
      redirect_uri: REDIRECT,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id;
    google.standIn.seen.length = 0;
    expect((await c.api.get(token, `/api/v1/businesses/locations-by-google/${id}`)).statusCode).toBe(200);
    // A live token: no refresh.
    expect(google.standIn.seen.filter((s) => s.grant === 'refresh_token')).toHaveLength(0);
    await rows(
      c.t,
      "update google_integrations set access_expires_at = now() - interval '1 minute' where id = $1",
      [id],
    );
    const [before] = await rows(c.t, 'select access_token from google_integrations where id = $1', [id]);
    const again = await c.api.get(token, `/api/v1/businesses/locations-by-google/${id}`);
    expect(again.statusCode, again.body).toBe(200);
    expect(google.standIn.seen.filter((s) => s.grant === 'refresh_token')).toHaveLength(1);
    const [after] = await rows(
      c.t,
      'select access_token, access_expires_at from google_integrations where id = $1',
      [id],
    );
    expect(after.access_token).not.toBe(before.access_token);
    expect(new Date(after.access_expires_at).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    // A refresh token Google no longer knows: 409, connect again.
    await rows(
      c.t,
      "update google_integrations set access_expires_at = now() - interval '1 minute', refresh_token = 'revoked' where id = $1",
      [id],
    );
    const revoked = await c.api.get(token, `/api/v1/businesses/locations-by-google/${id}`);
    expect(revoked.statusCode, revoked.body).toBe(409);
  });
});
