import type http from 'node:http';
import type { WebhookTransport } from '../../carrier/sandbox/webhook-caller.ts';
import type { Db } from '../../db/client.ts';
import type { StripeSandboxApi, StripeSandboxDelivery } from '../payments.ts';
import { advanceClock, runDueUntil } from './clock.ts';
import { noSuch, StripeApiError } from './errors.ts';
import type { Params } from './form.ts';
import { authenticateSetup, confirmSetupWithCard } from './resources.ts';
import { type ApiAnswer, errorAnswer, portOf, type SandboxCore, startServer } from './server.ts';
import { type AccountCtx, accountByKey, createAccount, inAccount, render } from './store.ts';
import { WebhookSender } from './webhooks.ts';

// The Stripe sandbox (ADR 076): an emulator of the part of Stripe's REST API the product uses, on a local
// HTTP port the official SDK is pointed at, with its state in PostgreSQL. See server.ts (HTTP), resources.ts
// and billing.ts (the API), clock.ts (advance), webhooks.ts (signed deliveries), browser-routes.ts (the
// local card form).

/** payments.ts's SANDBOX_KEY (repeated: payments.ts imports this module, and this one imports only its types). */
const SANDBOX_KEY = /^(sk|rk|pk)_test_sandbox_[A-Za-z0-9]+$/;

export type StripeSandboxOptions = {
  db: Db;
  transport: WebhookTransport;
  onError?: (err: unknown) => void;
};

export class StripeSandbox implements StripeSandboxApi, SandboxCore {
  private readonly db: Db;
  private readonly webhooks: WebhookSender;
  private readonly onError: (err: unknown) => void;
  private server: Promise<http.Server> | null = null;

  constructor(opts: StripeSandboxOptions) {
    this.db = opts.db;
    this.onError = opts.onError ?? (() => undefined);
    this.webhooks = new WebhookSender(opts.db, opts.transport, this.onError);
  }

  get deliveries(): readonly StripeSandboxDelivery[] {
    return this.webhooks.deliveries;
  }

  /** The port the emulator listens on (127.0.0.1), started on first use. */
  async port(): Promise<number> {
    if (!this.server) {
      this.server = startServer(this, this.onError);
      this.server.catch(() => {
        this.server = null;
      });
    }
    return portOf(await this.server);
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      const s = await server.catch(() => null);
      if (s) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    }
    await this.settle();
  }

  async createAccount(): Promise<{ secretKey: string; publishableKey: string }> {
    const a = await createAccount(this.db);
    return { secretKey: a.secret_key, publishableKey: a.publishable_key };
  }

  async accountIdForSecret(key: string): Promise<string | null> {
    if (!SANDBOX_KEY.test(key) || key.startsWith('pk_')) return null;
    const found = await accountByKey(this.db, key);
    if (found) return found.id;
    // An unknown but well-formed secret key (the platform's own) becomes an account on first use.
    if (!key.startsWith('sk_')) return null;
    return (await createAccount(this.db, key.slice('sk_test_sandbox_'.length))).id;
  }

  private async needAccount(secretKey: string): Promise<string> {
    const id = await this.accountIdForSecret(secretKey);
    if (!id) throw new Error('stripe sandbox: not a sandbox secret key');
    return id;
  }

  async run(accountId: string, fn: (ctx: AccountCtx) => Promise<ApiAnswer>): Promise<ApiAnswer> {
    const { value, events } = await inAccount(this.db, accountId, async (ctx) => {
      // What real time alone made due (a renewal while the sandbox ran) happens before the request.
      const now = ctx.nowMs;
      await runDueUntil(ctx, now);
      ctx.nowMs = now;
      return fn(ctx);
    });
    void this.webhooks.send(accountId, events);
    return value;
  }

  async now(secretKey: string): Promise<Date> {
    const a = await accountByKey(this.db, secretKey);
    if (!a) await this.needAccount(secretKey);
    return new Date(Date.now() + (a?.clock_offset_ms ?? 0));
  }

  async advance(secretKey: string, ms: number): Promise<void> {
    const accountId = await this.needAccount(secretKey);
    const events = await advanceClock(this.db, accountId, ms);
    await this.webhooks.send(accountId, events);
  }

  settle(): Promise<void> {
    return this.webhooks.settle();
  }

  /** Not Stripe: delivers a stored event again (tests). */
  resend(eventId: string): Promise<void> {
    return this.webhooks.resend(eventId);
  }

  /**
   * The browser's card form on a setup intent (browser-routes.ts): authenticated by the publishable key and
   * the intent's client_secret; anything else is Stripe's 404.
   */
  async browserSetupIntent(
    publishableKey: string,
    setupIntentId: string,
    body: Params,
    action: 'confirm' | 'authenticate',
  ): Promise<ApiAnswer> {
    const account =
      SANDBOX_KEY.test(publishableKey) && publishableKey.startsWith('pk_')
        ? await accountByKey(this.db, publishableKey)
        : null;
    if (!account)
      return errorAnswer(401, {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${publishableKey || '(none)'}`,
      });
    try {
      return await this.run(account.id, async (ctx) => {
        const si = await ctx.get(setupIntentId);
        if (si?.object !== 'setup_intent' || si.client_secret !== body.client_secret)
          throw noSuch('setup_intent', setupIntentId, 'intent');
        try {
          const result =
            action === 'confirm'
              ? await confirmSetupWithCard(ctx, si, (body.card ?? {}) as Params)
              : await authenticateSetup(ctx, si, String(body.outcome ?? ''));
          return { status: 200, body: render(result) };
        } catch (err) {
          if (err instanceof StripeApiError && err.keep) return errorAnswer(err.status, render(err.body));
          throw err;
        }
      });
    } catch (err) {
      if (err instanceof StripeApiError) return errorAnswer(err.status, render(err.body));
      throw err;
    }
  }
}
