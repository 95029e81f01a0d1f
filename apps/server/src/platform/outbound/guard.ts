// The one way the server fetches an address that came from outside (a carrier's media URL, a recording,
// later the automations' webhooks and the integrations' base addresses): ADR 049. Before any connection
// the URL's scheme is checked (http, https), its host against the caller's allow-list when it gives one,
// and the name resolved with every address checked against loopback, private, link-local (the cloud
// metadata address), CGNAT, unspecified, multicast, reserved and IPv4-in-IPv6 forms. The socket is then
// opened to the very address that was checked (no second lookup, so no DNS rebinding). Redirects are
// followed by hand, each hop checked the same way, credentials dropped when a hop leaves the first origin.
// The size is enforced while streaming (a declared length over the limit is refused before reading), and
// there are connect and total timeouts.
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import tls from 'node:tls';

export type OutboundReason =
  | 'url'
  | 'scheme'
  | 'host'
  | 'address'
  | 'dns'
  | 'redirect'
  | 'too-large'
  | 'timeout'
  | 'network';

/** A fetch the guard refused or that failed; `reason` says which rule or failure. */
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    readonly reason: OutboundReason,
    message: string,
  ) {
    super(message);
  }
}

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Name to addresses (every one is checked). The default is the system resolver (dns.lookup, all). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;
/** Opens the socket to a checked address. The default is net.connect / tls.connect. */
export type Connector = (target: {
  address: string;
  family: 4 | 6;
  port: number;
  tls: boolean;
  /** The URL's host name, for TLS (SNI and the certificate check); absent for an IP literal. */
  servername: string | undefined;
}) => net.Socket;

export type OutboundOptions = {
  resolve?: Resolver;
  connect?: Connector;
  /**
   * Exact origins (`http://127.0.0.1:4567`) that may be reached although their address is loopback or
   * private: a test's local server. An explicit list, never a switch: nothing else is let through.
   */
  allowOrigins?: readonly string[];
};

export type OutboundRequest = {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Headers for the first URL's origin only (an Authorization): never sent to a redirect elsewhere. */
  credentials?: Record<string, string>;
  body?: string | Buffer;
  /** The body's limit in bytes: a declared larger length is refused unread, a longer stream cut. */
  maxBytes: number;
  /** The whole exchange, body included (default 15 s). */
  timeoutMs?: number;
  /** Until each hop's socket is connected (default 5 s). */
  connectTimeoutMs?: number;
  /** Redirects followed (default 5); more is refused. 0 refuses any redirect. */
  maxRedirects?: number;
  /**
   * Host names the first URL may name (`api.twilio.com`, or `*.twiliocdn.com` for any name below it).
   * Redirects from there are followed under the address rules alone (a carrier's CDN or bucket).
   */
  allowHosts?: readonly string[];
};

export type OutboundResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The last hop's URL. */
  url: string;
  /** The body, cut with an OutboundError('too-large') past maxBytes. Read it or destroy it. */
  body: Readable;
};

export type Outbound = {
  /** The answer with its body as a stream (limited, under the total timeout until it ends). */
  stream(url: string, request: OutboundRequest): Promise<OutboundResponse>;
  /** The answer with its body read (limited). */
  fetch(url: string, request: OutboundRequest): Promise<Omit<OutboundResponse, 'body'> & { body: Buffer }>;
};

// ---------------------------------------------------------------- addresses

const REFUSED = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 broadcast
] as const)
  REFUSED.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  // Inside global unicast 2000::/3 (everything outside it is refused, see isPublicAddress).
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID, AMT, ...
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: refused whatever IPv4 address it embeds (the relay is not ours to trust)
  ['3fff::', 20], // documentation (RFC 9637)
] as const)
  REFUSED.addSubnet(net6, bits, 'ipv6');

/**
 * The 16 bytes of an IPv6 address as eight numbers (a dotted IPv4 tail made two), or null. The address
 * has passed `net.isIP` already.
 */
function hextets(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail, ...more] = text.split('::');
  if (more.length) return null;
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const all = [...left, ...Array<string>(Math.max(fill, 0)).fill('0'), ...right];
  return all.length === 8 ? all.map((h) => Number.parseInt(h, 16)) : null;
}

/**
 * True for an address a server-side fetch may connect to (a public unicast address). IPv6: global unicast
 * (2000::/3) only, less the special-purpose ranges of IANA's registry inside it; IPv4-mapped
 * `::ffff:a.b.c.d` is judged as the IPv4 address it carries. Everything else is refused: `::`, `::1`,
 * IPv4-compatible `::a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 64:ff9b::/96 and /48, discard
 * 100::/64, SRv6 5f00::/16, unique local fc00::/7, link-local fe80::/10, site-local, multicast ff00::/8.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare);
  if (family === 0) return false;
  if (family === 4) return !REFUSED.check(bare, 'ipv4');
  const h = hextets(bare);
  if (!h) return false;
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  if (h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0xffff) {
    const v4 = `${h6 >> 8}.${h6 & 0xff}.${h7 >> 8}.${h7 & 0xff}`;
    return !REFUSED.check(v4, 'ipv4');
  }
  if ((h0 & 0xe000) !== 0x2000) return false;
  return !REFUSED.check(bare, 'ipv6');
}

/** `api.twilio.com` matches itself; `*.twiliocdn.com` matches any name below twiliocdn.com. */
export function hostAllowed(hostname: string, allowHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowHosts.some((rule) => {
    const r = rule.toLowerCase();
    return r.startsWith('*.') ? host.endsWith(r.slice(1)) && host.length > r.length - 1 : host === r;
  });
}

const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

const systemConnector: Connector = (t) =>
  t.tls
    ? tls.connect({
        host: t.address,
        port: t.port,
        ...(t.servername ? { servername: t.servername } : {}),
        ALPNProtocols: ['http/1.1'],
      })
    : net.connect({ host: t.address, port: t.port });

// ---------------------------------------------------------------- the guard

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_REDIRECTS = 5;

export function createOutbound(options: OutboundOptions = {}): Outbound {
  const resolve = options.resolve ?? systemResolver;
  const connect = options.connect ?? systemConnector;
  const allowOrigins = new Set((options.allowOrigins ?? []).map((o) => new URL(o).origin));

  /** The URL parsed and its address chosen, or an OutboundError: nothing is connected yet. */
  async function check(
    raw: string,
    allowHosts: readonly string[] | undefined,
  ): Promise<{
    url: URL;
    target: ResolvedAddress;
  }> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundError('url', 'not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundError('scheme', `the ${url.protocol} scheme is not allowed`);
    if (url.username || url.password) throw new OutboundError('url', 'credentials in the URL are refused');
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    if (allowHosts && !hostAllowed(hostname, allowHosts))
      throw new OutboundError('host', `${hostname} is not an allowed host`);
    let addresses: ResolvedAddress[];
    if (net.isIP(hostname)) addresses = [{ address: hostname, family: net.isIP(hostname) === 6 ? 6 : 4 }];
    else {
      try {
        addresses = await resolve(hostname);
      } catch (err) {
        throw new OutboundError('dns', `${hostname} could not be resolved (${(err as Error).message})`);
      }
    }
    const first = addresses[0];
    if (!first) throw new OutboundError('dns', `${hostname} has no address`);
    if (!allowOrigins.has(url.origin)) {
      // Every address is checked, not just the one used: a name that also points inside is refused.
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      if (refused)
        throw new OutboundError('address', `${hostname} resolves to ${refused.address}, which is refused`);
    }
    return { url, target: first };
  }

  /** One hop: the request on a socket to the checked address. Resolves once the headers are in. */
  function hop(
    url: URL,
    target: ResolvedAddress,
    req: { method: string; headers: Record<string, string>; body: string | Buffer | undefined },
    connectTimeoutMs: number,
    signal: AbortSignal,
  ): Promise<http.IncomingMessage> {
    return new Promise((resolvePromise, reject) => {
      const isTls = url.protocol === 'https:';
      const port = Number(url.port) || (isTls ? 443 : 80);
      const hostname = url.hostname.replace(/^\[|\]$/g, '');
      let connectTimer: NodeJS.Timeout | undefined;
      const request = http.request({
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...req.headers, host: url.host },
        signal,
        createConnection: () => {
          const socket = connect({
            address: target.address,
            family: target.family,
            port,
            tls: isTls,
            servername: net.isIP(hostname) ? undefined : hostname,
          });
          connectTimer = setTimeout(
            () => socket.destroy(new OutboundError('timeout', `no connection to ${url.host} in time`)),
            connectTimeoutMs,
          );
          socket.once(isTls ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
          socket.once('close', () => clearTimeout(connectTimer));
          return socket;
        },
      });
      request.once('response', resolvePromise);
      // Kept for the request's life: an abort after the answer must not be an unhandled error event.
      request.on('error', (err) => {
        clearTimeout(connectTimer);
        reject(err);
      });
      request.end(req.body);
    });
  }

  async function stream(raw: string, r: OutboundRequest): Promise<OutboundResponse> {
    const timeoutMs = r.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const connectTimeoutMs = r.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const maxRedirects = r.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new OutboundError('timeout', `no complete answer in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const failure = (err: unknown): OutboundError => {
      if (abort.signal.aborted && abort.signal.reason instanceof OutboundError) return abort.signal.reason;
      if (err instanceof OutboundError) return err;
      const cause = err instanceof Error ? err.message : String(err);
      return new OutboundError('network', cause);
    };
    try {
      let current = raw;
      let method: string = r.method ?? 'GET';
      let body = r.body;
      let firstOrigin: string | null = null;
      for (let hops = 0; ; hops++) {
        const { url, target } = await check(current, hops === 0 ? r.allowHosts : undefined);
        firstOrigin ??= url.origin;
        const sameOrigin = url.origin === firstOrigin;
        const headers: Record<string, string> = {
          ...(r.headers ?? {}),
          ...(sameOrigin ? r.credentials : {}),
        };
        if (!sameOrigin)
          for (const h of Object.keys(headers)) if (/^(authorization|cookie)$/i.test(h)) delete headers[h];
        if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
        const res = await hop(url, target, { method, headers, body }, connectTimeoutMs, abort.signal);
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.destroy();
          const location = res.headers.location;
          if (!location) throw new OutboundError('redirect', `a ${status} without a Location`);
          if (hops >= maxRedirects)
            throw new OutboundError('redirect', `more than ${maxRedirects} redirects`);
          current = new URL(location, url).toString();
          if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
          }
          continue;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > r.maxBytes) {
          res.destroy();
          throw new OutboundError('too-large', `the answer declares ${declared} bytes, over ${r.maxBytes}`);
        }
        const out = new PassThrough();
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > r.maxBytes) {
            res.destroy();
            out.destroy(new OutboundError('too-large', `the answer passed ${r.maxBytes} bytes`));
            return;
          }
          if (!out.write(chunk)) res.pause();
        });
        out.on('drain', () => res.resume());
        res.once('end', () => {
          clearTimeout(timer);
          out.end();
        });
        res.once('error', (err) => out.destroy(failure(err)));
        res.once('close', () => {
          if (!res.complete && !out.destroyed) out.destroy(failure(new Error('the answer was cut')));
        });
        abort.signal.addEventListener('abort', () => {
          res.destroy();
          out.destroy(failure(abort.signal.reason));
        });
        out.once('close', () => {
          clearTimeout(timer);
          if (!res.complete) res.destroy();
        });
        return { status, headers: res.headers, url: url.toString(), body: out };
      }
    } catch (err) {
      clearTimeout(timer);
      throw failure(err);
    }
  }

  async function fetchAll(raw: string, r: OutboundRequest) {
    const res = await stream(raw, r);
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
    return { ...res, body: Buffer.concat(chunks) };
  }

  return { stream, fetch: fetchAll };
}
