import { twilioSignature } from '../../webhooks/tree.ts';

export type WebhookDelivery = {
  method: 'GET' | 'POST';
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
  method?: 'GET' | 'POST',
) => Promise<{ status: number; body: string }>;

export const fetchTransport: WebhookTransport = async (url, headers, body, method = 'POST') => {
  const res = await fetch(url, {
    method,
    headers,
    ...(method === 'POST' ? { body } : {}),
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: await res.text() };
};

/**
 * Calls the product back exactly as Twilio does: POST, application/x-www-form-urlencoded, and
 * X-Twilio-Signature = base64 HMAC-SHA1 of the full URL followed by the sorted parameters, keyed with
 * the account's auth token (GET: the parameters go in the query string, and the signature covers that
 * URL alone). Every delivery is kept (newest last, the last 2,000) for tests and the sandbox screen.
 */
export class WebhookCaller {
  readonly deliveries: WebhookDelivery[] = [];

  constructor(private readonly transport: WebhookTransport = fetchTransport) {}

  async post(url: string, params: Record<string, string>, authToken: string): Promise<WebhookDelivery> {
    return this.request('POST', url, params, authToken);
  }

  async request(
    method: 'GET' | 'POST',
    url: string,
    params: Record<string, string>,
    authToken: string,
  ): Promise<WebhookDelivery> {
    let target = url;
    if (method === 'GET') {
      const u = new URL(url);
      for (const [k, v] of Object.entries(params)) u.searchParams.append(k, v);
      target = u.toString();
    }
    const signature = twilioSignature(authToken, target, method === 'GET' ? {} : params);
    const delivery: WebhookDelivery = {
      method,
      url: target,
      params,
      signature,
      status: null,
      responseBody: null,
      error: null,
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > 2000) this.deliveries.splice(0, this.deliveries.length - 2000);
    try {
      const headers: Record<string, string> = {
        'x-twilio-signature': signature,
        'user-agent': 'TwilioProxy/1.1',
        accept: '*/*',
      };
      if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded; charset=utf-8';
      const res = await this.transport(
        target,
        headers,
        method === 'POST' ? new URLSearchParams(params).toString() : '',
        method,
      );
      delivery.status = res.status;
      delivery.responseBody = res.body;
    } catch (error) {
      delivery.error = error instanceof Error ? error.message : String(error);
    }
    return delivery;
  }
}
