// Helmet's security headers on every answer (the CSP, HSTS over TLS, and the rest of its defaults). The
// middleware is built once: @fastify/helmet built it again for every request, parsing the CSP's directives
// each time (a tenth of the server's CPU for an inbound text, issue 27).
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

export function securityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}
