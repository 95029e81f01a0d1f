// The local stand-in of Google's OAuth and Business Profile APIs (ADR 091), as the carrier, Stripe and the AI
// API have theirs: with no GOOGLE_BASE_URL the platform connects to it in process (no HTTP), and its consent
// page is served by our own server under /api/sandbox/google, so `npm start` users can click through. Tests
// start the same stand-in as a real HTTP server on 127.0.0.1 (./sandbox-server.ts) and set GOOGLE_BASE_URL.
//
// One demo account with two locations. Codes, access and refresh tokens carry what they stand for (the
// stand-in keeps almost nothing), so a restart of `npm start` does not lose a connection; a code is used once.

import crypto from 'node:crypto';

export const SANDBOX_ACCOUNT = {
  name: 'accounts/1093728465012',
  accountName: 'Bright Dental (Google demo)',
  email: 'owner@google-demo.test',
};

export const SANDBOX_LOCATIONS = [
  {
    name: 'locations/4021887766',
    title: 'Bright Dental Downtown',
    storefrontAddress: {
      addressLines: ['120 Main Street'],
      locality: 'Springfield',
      administrativeArea: 'IL',
      postalCode: '62701',
      regionCode: 'US',
    },
    metadata: { placeId: 'ChIJsandboxDowntown01' },
  },
  {
    name: 'locations/4021887767',
    title: 'Bright Dental Westside',
    storefrontAddress: {
      addressLines: ['48 Oak Avenue'],
      locality: 'Springfield',
      administrativeArea: 'IL',
      postalCode: '62704',
      regionCode: 'US',
    },
    metadata: { placeId: 'ChIJsandboxWestside02' },
  },
];

export type StandInRequest = {
  method: string;
  /** Path and query, as after the base address ('/token', '/v1/accounts?pageSize=20'). */
  url: string;
  headers: Record<string, string | undefined>;
  /** The form or JSON body as text. */
  body: string;
};
export type StandInResponse = { status: number; headers: Record<string, string>; body: string };

export type GoogleStandInOptions = {
  /** The client id and secret it accepts (undefined: any, as in process on a laptop). */
  clientId?: string;
  clientSecret?: string;
  /** Seconds an access token lives (Google: 3599). 0 makes every call after the exchange refresh first. */
  accessTtlSeconds?: number;
  /** Where the consent page's form posts to (the path of /o/oauth2/approve under this stand-in). */
  approvePath?: string;
  now?: () => number;
};

const json = (status: number, body: unknown): StandInResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});
const oauthError = (status: number, error: string, description: string) =>
  json(status, { error, error_description: description });
const apiError = (status: number, message: string) =>
  json(status, {
    error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'NOT_FOUND' },
  });

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function unb64<T>(v: string): T | null {
  try {
    return JSON.parse(Buffer.from(v, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export class GoogleStandIn {
  /** The API calls it answered (method, path, grant type), the last 500: what tests look at. */
  readonly seen: { method: string; path: string; grant?: string; authorization?: string }[] = [];
  private readonly used = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly options: GoogleStandInOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** The consent page (GET /o/oauth2/auth): the account, what is asked, and an Allow button. */
  consentPage(query: URLSearchParams): StandInResponse {
    const redirect = query.get('redirect_uri') ?? '';
    const clientId = query.get('client_id') ?? '';
    if (!/^https?:\/\//.test(redirect) || !clientId || query.get('response_type') !== 'code')
      return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'invalid_request' };
    const hidden = ['client_id', 'redirect_uri', 'state', 'scope']
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(query.get(k) ?? '')}">`)
      .join('');
    const action = escapeHtml(this.options.approvePath ?? '/o/oauth2/approve');
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in - Google (stand-in)</title></head>
<body style="font-family:sans-serif;max-width:420px;margin:48px auto">
<h1>Google (stand-in)</h1>
<p>This is the platform's local stand-in for Google. No Google account is used.</p>
<p><strong>${escapeHtml(SANDBOX_ACCOUNT.accountName)}</strong> (${escapeHtml(SANDBOX_ACCOUNT.email)})
wants to let the app manage its Business Profile locations.</p>
<form method="get" action="${action}">${hidden}
<button type="submit" name="decision" value="allow" data-testid="google-sandbox-allow">Allow</button>
<button type="submit" name="decision" value="deny" data-testid="google-sandbox-deny">Cancel</button>
</form></body></html>`;
    return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
  }

  /** The consent's answer (GET /o/oauth2/approve): back to redirect_uri with a code (or access_denied). */
  approve(query: URLSearchParams): StandInResponse {
    const redirect = query.get('redirect_uri') ?? '';
    if (!/^https?:\/\//.test(redirect))
      return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'invalid_request' };
    const back = new URL(redirect);
    const state = query.get('state');
    if (state) back.searchParams.set('state', state);
    if (query.get('decision') === 'allow') {
      const code = `4/sb.${b64({ c: query.get('client_id') ?? '', r: redirect, e: this.now() + 600_000, n: crypto.randomBytes(6).toString('hex') })}`;
      back.searchParams.set('code', code);
    } else back.searchParams.set('error', 'access_denied');
    return { status: 302, headers: { location: back.toString() }, body: '' };
  }

  private accessToken() {
    const ttl = this.options.accessTtlSeconds ?? 3599;
    return {
      token: `ya29.sb.${b64({ e: this.now() + ttl * 1000, n: crypto.randomBytes(6).toString('hex') })}`,
      expires_in: ttl,
    };
  }

  private token(form: URLSearchParams): StandInResponse {
    const { clientId, clientSecret } = this.options;
    if (
      (clientId !== undefined && form.get('client_id') !== clientId) ||
      (clientSecret !== undefined && form.get('client_secret') !== clientSecret)
    )
      return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = form.get('code') ?? '';
      const data = code.startsWith('4/sb.')
        ? unb64<{ c: string; r: string; e: number }>(code.slice(5))
        : null;
      if (
        !data ||
        this.used.has(code) ||
        data.e < this.now() ||
        data.c !== form.get('client_id') ||
        data.r !== form.get('redirect_uri')
      )
        return oauthError(400, 'invalid_grant', 'Malformed auth code.');
      this.used.add(code);
      const access = this.accessToken();
      return json(200, {
        access_token: access.token,
        expires_in: access.expires_in,
        refresh_token: `1//sb.${crypto.randomBytes(12).toString('hex')}`,
        scope: 'https://www.googleapis.com/auth/business.manage openid email',
        token_type: 'Bearer',
      });
    }
    if (grant === 'refresh_token') {
      if (!(form.get('refresh_token') ?? '').startsWith('1//sb.'))
        return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      const access = this.accessToken();
      return json(200, {
        access_token: access.token,
        expires_in: access.expires_in,
        scope: 'https://www.googleapis.com/auth/business.manage openid email',
        token_type: 'Bearer',
      });
    }
    return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type.');
  }

  private authorized(headers: StandInRequest['headers']): boolean {
    const m = /^Bearer ya29\.sb\.(.+)$/.exec(headers.authorization ?? '');
    const data = m?.[1] ? unb64<{ e: number }>(m[1]) : null;
    return !!data && data.e > this.now();
  }

  /** One API request, as the HTTP server or the in-process client hands it over. */
  handle(req: StandInRequest): StandInResponse {
    const url = new URL(req.url, 'http://stand-in');
    const path = url.pathname;
    const form = new URLSearchParams(req.body);
    // The last calls only: in process on a laptop the stand-in lives as long as the server.
    if (this.seen.length >= 500) this.seen.shift();
    this.seen.push({
      method: req.method,
      path,
      grant: path === '/token' ? (form.get('grant_type') ?? '') : undefined,
      authorization: req.headers.authorization,
    });
    if (req.method === 'GET' && path === '/o/oauth2/auth') return this.consentPage(url.searchParams);
    if (req.method === 'GET' && path === '/o/oauth2/approve') return this.approve(url.searchParams);
    if (req.method === 'POST' && path === '/token') return this.token(form);
    if (!this.authorized(req.headers))
      return apiError(401, 'Request had invalid authentication credentials.');
    if (req.method === 'GET' && path === '/oauth2/v3/userinfo')
      return json(200, { sub: '1093728465012', email: SANDBOX_ACCOUNT.email, email_verified: true });
    if (req.method === 'GET' && path === '/v1/accounts')
      return json(200, {
        accounts: [
          {
            name: SANDBOX_ACCOUNT.name,
            accountName: SANDBOX_ACCOUNT.accountName,
            type: 'LOCATION_GROUP',
            verificationState: 'VERIFIED',
          },
        ],
      });
    const locs = /^\/v1\/(accounts\/[^/]+)\/locations$/.exec(path);
    if (req.method === 'GET' && locs) {
      if (locs[1] !== SANDBOX_ACCOUNT.name) return apiError(404, 'Requested entity was not found.');
      if (!url.searchParams.get('readMask'))
        return json(400, {
          error: { code: 400, message: "Request must contain a 'read_mask'.", status: 'INVALID_ARGUMENT' },
        });
      return json(200, { locations: SANDBOX_LOCATIONS, totalSize: SANDBOX_LOCATIONS.length });
    }
    return apiError(404, 'Requested entity was not found.');
  }
}
