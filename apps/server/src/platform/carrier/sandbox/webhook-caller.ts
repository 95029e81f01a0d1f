import { twilioSignature } from '../../webhooks/tree.ts';

export type WebhookDelivery = {
  url: string;
  params: Record<string, string>;
  signature: string;
  status: number | null;
  responseBody: string | null;
  error: string | null;
};

/** How a signed request leaves the sandbox; fetch by default, replaceable for in-process delivery. */
export type WebhookTransport = (
  url: string,
  headers: Record<string, string>,
  body: string,
) => Promise<{ status: number; body: string }>;

const fetchTransport: WebhookTransport = async (url, headers, body) => {
  const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual' });
  return { status: res.status, body: await res.text() };
};

/**
 * Calls the product back exactly as Twilio does: POST, application/x-www-form-urlencoded, and
 * X-Twilio-Signature = base64 HMAC-SHA1 of the full URL followed by the sorted parameters, keyed with
 * the account's auth token. Every delivery is kept (newest last) for tests and the sandbox screen.
 */
export class WebhookCaller {
  readonly deliveries: WebhookDelivery[] = [];

  constructor(private readonly transport: WebhookTransport = fetchTransport) {}

  async post(url: string, params: Record<string, string>, authToken: string): Promise<WebhookDelivery> {
    const signature = twilioSignature(authToken, url, params);
    const delivery: WebhookDelivery = {
      url,
      params,
      signature,
      status: null,
      responseBody: null,
      error: null,
    };
    this.deliveries.push(delivery);
    try {
      const res = await this.transport(
        url,
        {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'x-twilio-signature': signature,
          'user-agent': 'TwilioProxy/1.1',
          accept: '*/*',
        },
        new URLSearchParams(params).toString(),
      );
      delivery.status = res.status;
      delivery.responseBody = res.body;
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    return delivery;
  }
}
