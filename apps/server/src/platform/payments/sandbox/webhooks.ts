import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { WebhookTransport } from '../../carrier/sandbox/webhook-caller.ts';
import type { Db } from '../../db/client.ts';
import type { StripeSandboxDelivery } from '../payments.ts';
import type { StripeObject } from './store.ts';
import { stripeSandboxObjects } from './tables.ts';

// Webhooks: each event is POSTed as JSON to the account's enabled endpoints whose enabled_events match,
// signed as Stripe signs (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`), after the API has
// answered. Deliveries run one after another in event order; `settle()` waits for those started so far.

/** Stripe's signature header for a body (t: real unix seconds, as constructEvent's tolerance expects). */
export function signature(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${v1}`;
}

const MAX_DELIVERIES = 2000;

export class WebhookSender {
  readonly deliveries: StripeSandboxDelivery[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly transport: WebhookTransport,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Queues the delivery of events of an account (in order, after whatever is already queued). */
  send(accountId: string, events: StripeObject[]): Promise<void> {
    if (events.length === 0) return this.chain;
    this.chain = this.chain.then(async () => {
      try {
        const endpoints = await this.endpoints(accountId);
        for (const event of events) await this.deliver(endpoints, event);
      } catch (err) {
        this.onError(err);
      }
    });
    return this.chain;
  }

  /** Resolves once every delivery queued so far is done. */
  async settle(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.chain;
      await last;
    } while (last !== this.chain);
  }

  /** Delivers a stored event again (to the endpoints enabled for it now). */
  async resend(eventId: string): Promise<void> {
    const [row] = await this.db
      .select()
      .from(stripeSandboxObjects)
      .where(and(eq(stripeSandboxObjects.id, eventId), eq(stripeSandboxObjects.type, 'event')))
      .limit(1);
    if (!row) throw new Error(`stripe sandbox: no event ${eventId}`);
    await this.send(row.account_id, [row.data as StripeObject]);
  }

  private async endpoints(accountId: string): Promise<StripeObject[]> {
    const rows = await this.db
      .select({ data: stripeSandboxObjects.data })
      .from(stripeSandboxObjects)
      .where(
        and(
          eq(stripeSandboxObjects.account_id, accountId),
          eq(stripeSandboxObjects.type, 'webhook_endpoint'),
        ),
      );
    return rows.map((r) => r.data as StripeObject).filter((we) => !we.deleted && we.status === 'enabled');
  }

  private async deliver(endpoints: StripeObject[], event: StripeObject) {
    for (const we of endpoints) {
      const enabled = we.enabled_events as string[];
      if (!enabled.includes('*') && !enabled.includes(event.type as string)) continue;
      const body = JSON.stringify({ ...event, pending_webhooks: 1 }, null, 2);
      const delivery: StripeSandboxDelivery = {
        url: we.url as string,
        event_id: event.id,
        type: event.type as string,
        status: null,
        error: null,
      };
      this.deliveries.push(delivery);
      if (this.deliveries.length > MAX_DELIVERIES)
        this.deliveries.splice(0, this.deliveries.length - MAX_DELIVERIES);
      try {
        const res = await this.transport(
          delivery.url,
          {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': signature(we._secret as string, body),
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'cache-control': 'no-cache',
            accept: '*/*; q=0.5, application/xml',
          },
          body,
        );
        delivery.status = res.status;
        if (res.status < 200 || res.status >= 300) {
          delivery.error = `HTTP ${res.status}`;
          this.onError(
            new Error(`stripe sandbox: webhook ${event.type} to ${delivery.url} answered ${res.status}`),
          );
        }
      } catch (err) {
        delivery.error = err instanceof Error ? err.message : String(err);
        this.onError(err);
      }
    }
  }
}
