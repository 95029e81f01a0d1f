import Stripe from 'stripe';
import type { WebhookTransport } from '../carrier/sandbox/webhook-caller.ts';
import type { Db } from '../db/client.ts';
import { StripeSandbox } from './sandbox/sandbox.ts';

// Payments (ADR 076): the official `stripe` SDK for every call. A key of the Stripe sandbox
// (`sk_test_sandbox_…`/`pk_test_sandbox_…`) makes the same SDK talk to the platform's own emulator through
// its host, port and protocol options; any other key talks to Stripe. The platform's keys come from the
// environment (none set: a sandbox account of the platform); each agency's from its stripe-setting.

/** A key of the Stripe sandbox (secret, restricted or publishable). */
export const SANDBOX_KEY = /^(sk|rk|pk)_test_sandbox_[A-Za-z0-9]+$/;
export const isSandboxKey = (key: string) => SANDBOX_KEY.test(key);

/** A webhook delivery the sandbox made (newest last), for tests and the sandbox screen. */
export type StripeSandboxDelivery = {
  url: string;
  event_id: string;
  type: string;
  status: number | null;
  error: string | null;
};

/** What the product (and tests) ask of the Stripe sandbox beyond Stripe's own API. */
export interface StripeSandboxApi {
  /** A new sandbox account: its secret and publishable keys (the pair shares its random part). */
  createAccount(): Promise<{ secretKey: string; publishableKey: string }>;
  /** The account's clock (real time plus what `advance` added). */
  now(secretKey: string): Promise<Date>;
  /**
   * Moves the account's clock forward by `ms` and runs what falls due on the way, in time order: trials
   * ending, renewals (charged to the default card; a failure leaves the invoice open and the subscription
   * past_due), cancellations at period end. Their webhooks are sent before it resolves.
   */
  advance(secretKey: string, ms: number): Promise<void>;
  /** Resolves once every webhook delivery started so far has been answered. */
  settle(): Promise<void>;
  readonly deliveries: readonly StripeSandboxDelivery[];
}

export type Payments = {
  /** The SDK for a secret key: the sandbox for a sandbox key (null when the sandbox is off: refused), else Stripe. */
  client(secretKey: string): Promise<Stripe>;
  /** The process's Stripe sandbox; null when STRIPE_SANDBOX is off. */
  sandbox: StripeSandboxApi | null;
  close(): Promise<void>;
};

export type PaymentsOptions = {
  db: Db;
  /** STRIPE_SANDBOX: whether sandbox keys are served here. */
  sandbox: boolean;
  /** How the sandbox's signed webhooks reach their URLs (in process for our own URLs). */
  transport: WebhookTransport;
  onError?: (err: unknown) => void;
};

/** Real Stripe for a real key. */
export function realStripe(secretKey: string): Stripe {
  return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000, telemetry: false });
}

/**
 * The process's payments: the SDK for any key, the Stripe sandbox's emulator (started on the first sandbox
 * key) when STRIPE_SANDBOX is on.
 */
export function createPayments(opts: PaymentsOptions): Payments {
  const sandbox = opts.sandbox
    ? new StripeSandbox({ db: opts.db, transport: opts.transport, onError: opts.onError })
    : null;
  return {
    sandbox,
    async client(secretKey: string): Promise<Stripe> {
      if (!isSandboxKey(secretKey)) return realStripe(secretKey);
      if (!sandbox) throw new Error('The Stripe sandbox is off (STRIPE_SANDBOX)');
      const port = await sandbox.port();
      return new Stripe(secretKey, {
        host: '127.0.0.1',
        port,
        protocol: 'http',
        telemetry: false,
        maxNetworkRetries: 0,
      });
    },
    async close() {
      await sandbox?.close();
    },
  };
}
