// Helmet's security headers on every answer (the CSP, HSTS over TLS, and the rest of its defaults). Our
// options have no per-request value (no nonce, no function directive), so Helmet runs once, at start, and
// every answer gets the headers it wrote: @fastify/helmet built the middleware again for every request,
// parsing the CSP's directives each time (a tenth of the server's CPU for an inbound text, issue 27), and
// running it per request still cost ~16 µs (ADR 114). The carrier's direct intake (../webhooks/intake.ts)
// writes the same list.
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers Helmet writes with these options: names lower-cased, in Helmet's order. */
export type SecurityHeaders = readonly (readonly [string, string])[];

export function securityHeaderList(options: Readonly<HelmetOptions>): SecurityHeaders {
  // A directive computed per request (a nonce) cannot be written once for every answer.
  const csp = options.contentSecurityPolicy;
  const directives = csp && typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  if (
    directives.some(
      (d) => typeof d === 'function' || (Array.isArray(d) && d.some((v) => typeof v === 'function')),
    )
  )
    throw new Error('security headers: a CSP directive computed per request cannot be precomputed');
  const written = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      written.set(name.toLowerCase(), String(value));
    },
    removeHeader(name: string) {
      written.delete(name.toLowerCase());
    },
    getHeader(name: string) {
      return written.get(name.toLowerCase());
    },
  };
  let failed: unknown = null;
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    failed = err ?? null;
  });
  if (failed) throw failed;
  return [...written];
}

export function securityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): SecurityHeaders {
  const headers = securityHeaderList(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  return headers;
}
