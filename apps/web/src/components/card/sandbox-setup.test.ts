import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticateSandboxSetup, confirmSandboxSetup, outcomeOf } from './sandbox-setup.ts';

const secret = { client_secret: 'seti_42_secret_abc', publishable_key: 'pk_test_sandbox_x', sandbox: true };
const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };

describe('outcomeOf', () => {
  it('reads a succeeded intent, an authentication step and errors', () => {
    expect(outcomeOf(true, { status: 'succeeded', payment_method: 'pm_1' }, 'x')).toEqual({
      kind: 'succeeded',
      paymentMethod: 'pm_1',
    });
    expect(outcomeOf(true, { status: 'succeeded', payment_method: { id: 'pm_2' } }, 'x')).toEqual({
      kind: 'succeeded',
      paymentMethod: 'pm_2',
    });
    expect(outcomeOf(true, { status: 'requires_action' }, 'x')).toEqual({ kind: 'requires_action' });
    expect(
      outcomeOf(
        true,
        { status: 'requires_payment_method', last_setup_error: { message: 'Authentication failed.' } },
        'x',
      ),
    ).toEqual({ kind: 'error', message: 'Authentication failed.' });
    expect(outcomeOf(false, { error: { message: 'Your card was declined.' } }, 'x')).toEqual({
      kind: 'error',
      message: 'Your card was declined.',
    });
    expect(outcomeOf(false, null, 'Something went wrong')).toEqual({
      kind: 'error',
      message: 'Something went wrong',
    });
  });
});

describe('the sandbox calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('confirm posts the card with the publishable key, to the intent of the client secret', async () => {
    const fetch = vi.fn(async () =>
      Response.json({ status: 'succeeded', payment_method: 'pm_9' }, { status: 200 }),
    );
    vi.stubGlobal('fetch', fetch);
    expect(await confirmSandboxSetup(secret, card, 'x')).toEqual({
      kind: 'succeeded',
      paymentMethod: 'pm_9',
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/stripe-sandbox/v1/setup_intents/seti_42/confirm');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer pk_test_sandbox_x');
    expect(JSON.parse(init.body as string)).toEqual({ client_secret: secret.client_secret, card });
  });

  it("authenticate posts the outcome; a 402 answers Stripe's message; no answer at all is the fallback", async () => {
    const fetch = vi.fn(async () =>
      Response.json({ error: { message: 'Your card was declined.' } }, { status: 402 }),
    );
    vi.stubGlobal('fetch', fetch);
    expect(await authenticateSandboxSetup(secret, 'fail', 'x')).toEqual({
      kind: 'error',
      message: 'Your card was declined.',
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/stripe-sandbox/v1/setup_intents/seti_42/authenticate');
    expect(JSON.parse(init.body as string)).toEqual({ client_secret: secret.client_secret, outcome: 'fail' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new Error('offline'))),
    );
    expect(await confirmSandboxSetup(secret, card, 'No answer')).toEqual({
      kind: 'error',
      message: 'No answer',
    });
  });
});
