import type { FastifyInstance } from 'fastify';
import type { Payments } from '../payments.ts';
import { StripeSandbox } from './sandbox.ts';
import { keyOf } from './server.ts';

// The local card form's endpoints (the web app cannot hold a raw card nor reach the emulator's port):
// confirm a setup intent with a card, and complete or fail its 3-D Secure step. Authenticated by the
// account's publishable key (Bearer pk_test_sandbox_…) and the intent's client_secret, as Stripe.js is.

type Body = { client_secret?: string; card?: Record<string, unknown>; outcome?: string };

export async function stripeSandboxBrowserRoutes(app: FastifyInstance, opts: { payments: Payments }) {
  const answer =
    (action: 'confirm' | 'authenticate') =>
    async (
      req: { params: unknown; body: unknown; headers: Record<string, string | string[] | undefined> },
      reply: { code: (n: number) => { send: (b: unknown) => unknown } },
    ) => {
      const sandbox = opts.payments.sandbox;
      if (!(sandbox instanceof StripeSandbox))
        return reply
          .code(404)
          .send({ error: { type: 'invalid_request_error', message: 'The Stripe sandbox is off.' } });
      const key =
        keyOf(typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined) ?? '';
      const { id } = req.params as { id: string };
      const body = (req.body ?? {}) as Body;
      const res = await sandbox.browserSetupIntent(key, id, body as Record<string, unknown>, action);
      return reply.code(res.status).send(res.body);
    };
  app.post('/stripe-sandbox/v1/setup_intents/:id/confirm', answer('confirm'));
  app.post('/stripe-sandbox/v1/setup_intents/:id/authenticate', answer('authenticate'));
}
