// Google's OAuth and Business Profile APIs for Google Business locations (ADR 091): at GOOGLE_BASE_URL
// through the outbound URL guard, or the in-process stand-in (./sandbox.ts) when none is set.
//
// The base address is the operator's own setting, like AI_BASE_URL or CARRIER_SANDBOX_URL, never a URL from
// a tenant: its origin is the one the guard lets through although it may be private or loopback (a test's
// stand-in). The guard still checks the scheme, refuses redirects, limits the answer and times out. Paths are
// Google's: /o/oauth2/auth, /token, /oauth2/v3/userinfo, /v1/accounts, /v1/{account}/locations.
import type { Config } from '../config.ts';
import { createOutbound, type Outbound } from '../outbound/guard.ts';
import { GoogleStandIn, type StandInRequest, type StandInResponse } from './sandbox.ts';

/** Google could not be reached or answered something unexpected (a 503 for the caller). */
export class GoogleUnavailableError extends Error {
  override name = 'GoogleUnavailableError';
}
/** Google refused the code or the refresh token (invalid_grant...): the user must connect again. */
export class GoogleRefusedError extends Error {
  override name = 'GoogleRefusedError';
}

export type GoogleTokens = { accessToken: string; expiresIn: number; refreshToken: string | undefined };
export type GoogleAccount = { name: string; accountName: string };
export type GoogleLocation = { name: string; title: string; address: string; placeId: string };

export type GoogleClient = {
  /** Where the browser goes for consent (relative to our own server for the in-process stand-in). */
  authorizeUrl(input: { redirectUri: string; state: string }): string;
  exchangeCode(input: { code: string; redirectUri: string }): Promise<GoogleTokens>;
  refresh(refreshToken: string): Promise<GoogleTokens>;
  email(accessToken: string): Promise<string>;
  accounts(accessToken: string): Promise<GoogleAccount[]>;
  locations(accessToken: string, accountId: string): Promise<GoogleLocation[]>;
};

/** The path of the in-process stand-in's consent page on our own server. */
export const SANDBOX_PATH = '/api/sandbox/google';
const SCOPE = 'https://www.googleapis.com/auth/business.manage openid email';
const READ_MASK = 'name,title,storefrontAddress,metadata';
const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 20_000;

type Send = (req: StandInRequest) => Promise<StandInResponse>;

function parse(res: StandInResponse): Record<string, unknown> {
  try {
    return JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    throw new GoogleUnavailableError(`Google answered ${res.status} without JSON`);
  }
}

type RawLocation = {
  name?: string;
  title?: string;
  storefrontAddress?: {
    addressLines?: string[];
    locality?: string;
    administrativeArea?: string;
    postalCode?: string;
  };
  metadata?: { placeId?: string };
};

const addressOf = (a: RawLocation['storefrontAddress']) =>
  a
    ? [...(a.addressLines ?? []), [a.locality, a.administrativeArea, a.postalCode].filter(Boolean).join(' ')]
        .filter(Boolean)
        .join(', ')
    : '';

function clientOver(send: Send, google: Config['google'], authorizeBase: string): GoogleClient {
  const tokenCall = async (form: Record<string, string>): Promise<GoogleTokens> => {
    const body = new URLSearchParams({
      ...form,
      client_id: google.clientId,
      ...(google.clientSecret ? { client_secret: google.clientSecret } : {}),
    }).toString();
    const res = await send({
      method: 'POST',
      url: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    });
    const data = parse(res);
    if (res.status === 400 || res.status === 401)
      throw new GoogleRefusedError(`Google refused the grant: ${String(data.error ?? res.status)}`);
    if (res.status !== 200 || typeof data.access_token !== 'string')
      throw new GoogleUnavailableError(`Google's token endpoint answered ${res.status}`);
    return {
      accessToken: data.access_token,
      expiresIn: typeof data.expires_in === 'number' ? data.expires_in : 0,
      refreshToken: typeof data.refresh_token === 'string' ? data.refresh_token : undefined,
    };
  };
  const get = async (url: string, accessToken: string) => {
    const res = await send({
      method: 'GET',
      url,
      headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
      body: '',
    });
    if (res.status === 401) throw new GoogleRefusedError('Google refused the access token');
    if (res.status !== 200) throw new GoogleUnavailableError(`Google answered ${res.status} for ${url}`);
    return parse(res);
  };
  return {
    authorizeUrl({ redirectUri, state }) {
      const q = new URLSearchParams({
        client_id: google.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: SCOPE,
        access_type: 'offline',
        prompt: 'consent',
        state,
      });
      return `${authorizeBase}/o/oauth2/auth?${q}`;
    },
    exchangeCode: ({ code, redirectUri }) =>
      tokenCall({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
    refresh: (refreshToken) => tokenCall({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    async email(accessToken) {
      const data = await get('/oauth2/v3/userinfo', accessToken);
      return typeof data.email === 'string' ? data.email : '';
    },
    async accounts(accessToken) {
      const data = await get('/v1/accounts', accessToken);
      const list = Array.isArray(data.accounts)
        ? (data.accounts as { name?: string; accountName?: string }[])
        : [];
      return list
        .filter((a) => typeof a.name === 'string')
        .map((a) => ({ name: a.name as string, accountName: a.accountName ?? '' }));
    },
    async locations(accessToken, accountId) {
      const out: GoogleLocation[] = [];
      let pageToken = '';
      // Google pages locations (100 at most per page); a business has few, ten pages are plenty.
      for (let page = 0; page < 10; page++) {
        const q = new URLSearchParams({ readMask: READ_MASK, pageSize: '100' });
        if (pageToken) q.set('pageToken', pageToken);
        const data = await get(`/v1/${accountId}/locations?${q}`, accessToken);
        for (const l of (Array.isArray(data.locations) ? data.locations : []) as RawLocation[]) {
          if (typeof l.name !== 'string') continue;
          out.push({
            name: l.name,
            title: l.title ?? '',
            address: addressOf(l.storefrontAddress),
            placeId: l.metadata?.placeId ?? '',
          });
        }
        pageToken = typeof data.nextPageToken === 'string' ? data.nextPageToken : '';
        if (!pageToken) break;
      }
      return out;
    },
  };
}

function remoteSend(baseUrl: string, outbound: Outbound): Send {
  return async (req) => {
    let res: Awaited<ReturnType<Outbound['fetch']>>;
    try {
      res = await outbound.fetch(`${baseUrl}${req.url}`, {
        method: req.method as 'GET' | 'POST',
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([k, v]) => k !== 'authorization' && v !== undefined),
        ) as Record<string, string>,
        // The bearer token goes to the configured origin only.
        credentials: req.headers.authorization ? { authorization: req.headers.authorization } : {},
        body: req.method === 'GET' ? undefined : req.body,
        maxBytes: MAX_BYTES,
        timeoutMs: TIMEOUT_MS,
        maxRedirects: 0,
      });
    } catch (err) {
      throw new GoogleUnavailableError(`Google unreachable: ${(err as Error).message}`);
    }
    return { status: res.status, headers: {}, body: res.body.toString('utf8') };
  };
}

type Built = { client: GoogleClient; standIn: GoogleStandIn | null };
const built = new WeakMap<Config, Built>();

function build(config: Config): Built {
  let b = built.get(config);
  if (!b) {
    const { baseUrl } = config.google;
    if (baseUrl) {
      const outbound = createOutbound({ allowOrigins: [new URL(baseUrl).origin] });
      b = { client: clientOver(remoteSend(baseUrl, outbound), config.google, baseUrl), standIn: null };
    } else {
      const standIn = new GoogleStandIn({ approvePath: `${SANDBOX_PATH}/o/oauth2/approve` });
      b = { client: clientOver(async (req) => standIn.handle(req), config.google, SANDBOX_PATH), standIn };
    }
    built.set(config, b);
  }
  return b;
}

/** One client per configuration: Google at GOOGLE_BASE_URL, or the in-process stand-in. */
export const googleClientFor = (config: Config): GoogleClient => build(config).client;

/** The in-process stand-in whose consent page our server serves; null when GOOGLE_BASE_URL is set. */
export const googleStandInFor = (config: Config): GoogleStandIn | null => build(config).standIn;
