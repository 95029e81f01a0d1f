import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Outbound } from '../outbound/guard.ts';
import type { Intake } from '../webhooks/intake.ts';
import { FORM_LIMIT } from '../webhooks/tree.ts';
import { type Carrier, type CarrierAccount, CarrierError } from './carrier.ts';
import { RemoteSandboxCarrier } from './remote-sandbox.ts';
import type { TwilioSandbox } from './sandbox/sandbox.ts';
import { fetchTransport, type WebhookTransport } from './sandbox/webhook-caller.ts';
import { TwilioCarrier } from './twilio-carrier.ts';
import { twilioWebhooks } from './twilio-webhooks.ts';
import type { CarrierWebhooks } from './webhooks.ts';

/**
 * The carrier as the platform hands it to modules (deps.carrier): one Carrier per agency account, on
 * the real Twilio API or on the process's sandbox (ADR 026).
 */
export type CarrierDeps = {
  /** The inbound half: webhooks parsed into our events, call instructions rendered (ADR 056). */
  webhooks: CarrierWebhooks;
  /**
   * The process's sandbox carrier; null when CARRIER_SANDBOX is off, and on a process that uses another's
   * sandbox (CARRIER_SANDBOX_URL, ADR 063).
   */
  sandbox: TwilioSandbox | null;
  /** Sandbox accounts can dial and text from this process: its own sandbox, or a remote one. */
  sandboxOn: boolean;
  /**
   * The carrier of an agency's account. A sandbox account is (re)created in the sandbox on demand: a
   * restarted process lost it, the database kept its sid and token.
   */
  forAccount(account: { accountSid: string; authToken: string; sandbox: boolean }): Carrier;
  /**
   * Checks credentials before they are saved: against the sandbox when it holds that account, else the
   * real Twilio API. Throws CarrierError (isAuthentication for bad credentials).
   */
  verify(credentials: { accountSid: string; authToken: string }): Promise<CarrierAccount>;
  /** A new sandbox account for an agency that chooses to try the product. Throws when the sandbox is off. */
  createSandboxAccount(friendlyName: string): { sid: string; authToken: string };
};

export const ACCOUNT_SID_PATTERN = /^AC[0-9a-fA-F]{32}$/;

const sandboxOff = () =>
  new CarrierError('The sandbox carrier is switched off on this server (CARRIER_SANDBOX).', null, 503);

/** Another process's sandbox (CARRIER_SANDBOX_URL): its base URL and the origins of its media URLs. */
export type RemoteSandbox = { url: string; mediaOrigins: string[] };

export function createCarrierDeps(
  sandbox: TwilioSandbox | null,
  outbound?: Outbound,
  remote?: RemoteSandbox,
): CarrierDeps {
  // One adapter per account and token: building the SDK client is not free, callbacks come in bursts.
  const cache = new Map<string, Carrier>();
  const remember = (key: string, make: () => Carrier) => {
    let c = cache.get(key);
    if (!c) {
      if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
      c = make();
      cache.set(key, c);
    }
    return c;
  };
  const badSid = () =>
    new CarrierError('The Account SID must be "AC" followed by 32 hexadecimal characters.', 20003, 401);
  return {
    webhooks: twilioWebhooks,
    sandbox,
    sandboxOn: Boolean(sandbox ?? remote),
    forAccount({ accountSid, authToken, sandbox: isSandbox }) {
      if (!ACCOUNT_SID_PATTERN.test(accountSid)) throw badSid();
      if (isSandbox) {
        // Another process's sandbox: it puts the account back from the database itself (remote-sandbox.ts).
        if (!sandbox && remote)
          return remember(
            `r:${accountSid}:${authToken}`,
            () => new RemoteSandboxCarrier(remote.url, accountSid, authToken, remote.mediaOrigins),
          );
        if (!sandbox) throw sandboxOff();
        sandbox.ensureAccount({ sid: accountSid, authToken });
        return remember(`s:${accountSid}:${authToken}`, () => sandbox.carrier(accountSid, authToken));
      }
      return remember(
        `t:${accountSid}:${authToken}`,
        () => new TwilioCarrier({ accountSid, authToken, ...(outbound ? { outbound } : {}) }),
      );
    },
    async verify({ accountSid, authToken }) {
      if (!ACCOUNT_SID_PATTERN.test(accountSid)) throw badSid();
      if (!authToken) throw new CarrierError('Authenticate', 20003, 401);
      if (sandbox?.accounts.has(accountSid)) return sandbox.carrier(accountSid, authToken).fetchAccount();
      if (!sandbox && remote) {
        // The remote sandbox knows the account (or the database does): else it is a real Twilio one.
        const held = await new RemoteSandboxCarrier(remote.url, accountSid, authToken, remote.mediaOrigins)
          .fetchAccount()
          .catch((error: unknown) => {
            if (error instanceof CarrierError && (error.isAuthentication || error.status === 404))
              return null;
            throw error;
          });
        if (held) return held;
      }
      return new TwilioCarrier({ accountSid, authToken }).fetchAccount();
    },
    createSandboxAccount(friendlyName) {
      // On another's sandbox (ADR 098): new credentials, which the holder takes from the database on their
      // first use (remote-sandbox.ts), as it does after a restart.
      if (!sandbox && remote)
        return {
          sid: `AC${crypto.randomBytes(16).toString('hex')}`,
          authToken: crypto.randomBytes(16).toString('hex'),
        };
      if (!sandbox) throw sandboxOff();
      const account = sandbox.createAccount({ friendlyName });
      return { sid: account.sid, authToken: account.authToken };
    },
  };
}

/**
 * Webhooks from the platform's own sandbox to the platform's own URLs go in process (app.inject): no
 * network hop, and the request looks as it would from outside (Host from the URL, the same raw path and
 * query), so the webhook tree rebuilds the very URL that was signed. Our own URLs are those on our hosts
 * (localhost, PUBLIC_URL's, MAIN_DOMAIN and below) and any /webhooks/ path. An https URL needs
 * TRUST_PROXY (X-Forwarded-Proto) to be rebuilt as https; without it, and for any other URL, fetch is used.
 */
export function inProcessTransport(
  app: () => FastifyInstance,
  opts: {
    trustProxy: boolean;
    hosts: string[];
    mainDomain: string;
    /** The app's direct intake: the carrier's form webhooks it answers skip Fastify here too (ADR 116). */
    intake?: () => Intake | null;
  },
  fallback: WebhookTransport = fetchTransport,
): WebhookTransport {
  const own = new Set(['localhost', '127.0.0.1', '[::1]', ...opts.hosts.map((h) => h.toLowerCase())]);
  const isOwn = (hostname: string) =>
    own.has(hostname) || hostname === opts.mainDomain || hostname.endsWith(`.${opts.mainDomain}`);
  return async (url, headers, body, method = 'POST') => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return fallback(url, headers, body, method);
    }
    // Our own hosts, and the webhook tree on any host (an agency's own domain points at this platform).
    if (!isOwn(u.hostname.toLowerCase()) && !u.pathname.startsWith('/webhooks/'))
      return fallback(url, headers, body, method);
    const h: Record<string, string> = { ...headers, host: u.host };
    if (u.protocol === 'https:') {
      if (!opts.trustProxy) return fallback(url, headers, body, method);
      h['x-forwarded-proto'] = 'https';
    }
    // The path and query exactly as written in the URL (the signature covers them as written).
    const afterScheme = url.indexOf('//') + 2;
    const slash = url.indexOf('/', afterScheme);
    const question = url.indexOf('?', afterScheme);
    const start = slash < 0 ? question : question < 0 ? slash : Math.min(slash, question);
    let path = start < 0 ? '/' : url.slice(start);
    if (path.startsWith('?')) path = `/${path}`;
    const hash = path.indexOf('#');
    if (hash >= 0) path = path.slice(0, hash);
    const intake = opts.intake?.();
    // Header names as Node gives them: lower case.
    const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
    const route = intake?.routeOf({ method, url: path, headers: lower });
    if (intake && route && Buffer.byteLength(body) <= FORM_LIMIT) {
      // As app.inject would make it: from the loopback address, over plain HTTP.
      const request = { method, url: path, headers: lower, remoteAddress: '127.0.0.1', encrypted: false };
      const answer = await intake.answer(route, request, body);
      return { status: answer.status, body: answer.body };
    }
    const res = await app().inject({
      method,
      url: path,
      headers: h,
      ...(method === 'POST' ? { payload: body } : {}),
    });
    return { status: res.statusCode, body: res.body };
  };
}

/**
 * GET /sandbox/recordings/:sid (and :sid.wav): a sandbox recording's WAV, public like Twilio's media
 * URLs (recording sids are unguessable), so the web app's <audio> can play it.
 */
export async function sandboxRecordingRoutes(
  app: FastifyInstance,
  opts: { sandbox: TwilioSandbox | null },
): Promise<void> {
  app.get('/sandbox/recordings/:sid', { schema: { hide: true } }, async (request, reply) => {
    const raw = (request.params as { sid: string }).sid;
    const sid = raw.replace(/\.(wav|mp3)$/i, '');
    const audio = /^RE[0-9a-f]{32}$/.test(sid) ? opts.sandbox?.recordingAudio(sid) : null;
    if (!audio) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    reply
      .type('audio/wav')
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('content-disposition', `inline; filename="${sid}.wav"`);
    // Some browsers' <audio> asks for byte ranges (Safari always does).
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? ''));
    if (range && (range[1] || range[2])) {
      const size = audio.length;
      let start = range[1] ? Number(range[1]) : size - Number(range[2]);
      let end = range[1] && range[2] ? Number(range[2]) : size - 1;
      start = Math.max(0, start);
      end = Math.min(size - 1, end);
      if (start > end || start >= size) {
        return reply.status(416).header('content-range', `bytes */${size}`).send();
      }
      return reply
        .status(206)
        .header('content-range', `bytes ${start}-${end}/${size}`)
        .send(audio.subarray(start, end + 1));
    }
    return reply.send(audio);
  });
}
