// The effectful actions of an automation (ADR 071), each run as the engine runs a step (a run and step
// row, the executor in the step's transaction as the automation system actor), their effects checked at
// their real places: the sandbox carrier's texts and calls, the mail outbox, the contact's tags, the tasks,
// a local HTTP receiver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from './actions/test-fixtures.ts';
import { type ActionsApp, actionsApp, addContact, addTag, runBlock } from './actions/test-support.ts';
import { WEBHOOK_ATTEMPTS, WEBHOOK_BACKOFF_MS } from './actions/webhook.ts';

let h: ActionsApp;
let rx: Receiver;
let ann: number;
const ANN = '+14155550142';

beforeAll(async () => {
  rx = await startReceiver();
  h = await actionsApp({ AUTOMATION_WEBHOOK_ALLOW_ORIGINS: rx.origin });
  ann = await addContact(h, {
    phone: ANN,
    first_name: 'Ann',
    last_name: 'Lee',
    email: 'ann@example.test',
    birthday: '1990-04-02',
  });
});
afterAll(async () => {
  await h?.close();
  await rx?.close();
});

describe('Webhook', () => {
  it('posts the contact as JSON with the step key as Idempotency-Key and records the answer', async () => {
    const vip = await addTag(h, 'VIP');
    await h.q('insert into contact_tags (contact_id, tag_id) values ($1, $2)', [ann, vip]);
    rx.received.length = 0;
    rx.answers.push({ status: 201, body: '{"received":true}' });
    const { result, key, runId } = await runBlock(
      h,
      'Webhook',
      { url: `${rx.origin}/hooks/lead?secret=s3`, headers: { 'X-Api-Key': 'k-1' } },
      ann,
    );
    expect(result).toMatchObject({
      kind: 'next',
      detail: { status: 201, body: '{"received":true}', url: `${rx.origin}/hooks/lead` },
    });
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe('/hooks/lead?secret=s3');
    expect(got?.headers['idempotency-key']).toBe(key);
    expect(got?.headers['x-api-key']).toBe('k-1');
    expect(got?.headers['content-type']).toBe('application/json');
    const body = JSON.parse(got?.body ?? '{}');
    expect(body).toMatchObject({
      id: ann,
      phone: ANN,
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.test',
      birthday: '1990-04-02',
      tags: [{ id: vip, name: 'VIP' }],
      automation_id: h.automationId,
      run_id: runId,
    });
  });

  it('retries a 5xx with backoff and the same key, then goes on with the failure recorded', async () => {
    rx.received.length = 0;
    rx.answers.push({ status: 503, body: 'busy' }, { status: 500 }, { status: 502, body: 'still' });
    const first = await runBlock(h, 'Webhook', { url: `${rx.origin}/flaky` }, ann);
    expect(first.result).toMatchObject({
      kind: 'fail',
      retry: true,
      retryAfterMs: WEBHOOK_BACKOFF_MS[0],
      continueRun: true,
      detail: { status: 503, body: 'busy', attempt: 1 },
    });
    const second = await runBlock(h, 'Webhook', { url: `${rx.origin}/flaky` }, ann, {
      again: { runId: first.runId, attempt: 2 },
    });
    expect(second.result).toMatchObject({ kind: 'fail', retry: true, retryAfterMs: WEBHOOK_BACKOFF_MS[1] });
    const third = await runBlock(h, 'Webhook', { url: `${rx.origin}/flaky` }, ann, {
      again: { runId: first.runId, attempt: WEBHOOK_ATTEMPTS },
    });
    expect(third.result).toMatchObject({
      kind: 'fail',
      retry: false,
      continueRun: true,
      error: 'automations.action.webhook_status',
      detail: { status: 502, body: 'still', attempt: 3 },
    });
    expect(rx.received).toHaveLength(3);
    expect(new Set(rx.received.map((r) => r.headers['idempotency-key']))).toEqual(new Set([first.key]));
  });

  it('does not retry a 4xx', async () => {
    rx.received.length = 0;
    rx.answers.push({ status: 404, body: 'no such hook' });
    const { result } = await runBlock(h, 'Webhook', { url: `${rx.origin}/gone` }, ann);
    expect(result).toMatchObject({
      kind: 'fail',
      retry: false,
      continueRun: true,
      detail: { status: 404, body: 'no such hook' },
    });
    expect(rx.received).toHaveLength(1);
  });

  it('retries a network failure (nothing listening)', async () => {
    const closed = await startReceiver();
    const origin = closed.origin;
    await closed.close();
    const { result } = await runBlock(h, 'Webhook', { url: `${origin}/x` }, ann);
    // Not an allowed origin: the guard refuses the loopback address before any connection.
    expect(result).toMatchObject({
      kind: 'fail',
      retry: false,
      error: 'automations.action.webhook_refused',
      detail: { reason: 'address' },
    });
  });

  it('refuses a header the block may not set, sending nothing', async () => {
    rx.received.length = 0;
    const { result } = await runBlock(
      h,
      'Webhook',
      { url: `${rx.origin}/h`, headers: { 'Idempotency-Key': 'mine' } },
      ann,
    );
    expect(result).toMatchObject({
      kind: 'fail',
      retry: false,
      error: 'automations.action.webhook_header_invalid',
    });
    expect(rx.received).toHaveLength(0);
  });
});

describe('SendMessage', () => {
  it('texts the contact from the install number with merge fields, stored in the conversation', async () => {
    const { result } = await runBlock(
      h,
      'SendMessage',
      { body: 'Hi {first_name}, {business_name} here' },
      ann,
    );
    expect(result).toMatchObject({ kind: 'next' });
    const id = Number(result.kind === 'next' ? result.detail?.message_id : 0);
    const sent = h.sandbox.sentMessages({ to: ANN });
    expect(sent.map((m) => m.body)).toContain('Hi Ann, Business A here');
    expect(sent.at(-1)?.from).toBe(h.number);
    const [row] = await h.q<{ body: string; direction: string; user_id: number | null }>(
      'select body, direction, user_id from messages where id = $1',
      [id],
    );
    expect(row).toEqual({ body: 'Hi Ann, Business A here', direction: 'out', user_id: null });
  });

  it('sends a template with its merge fields', async () => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: { authorization: `Bearer ${h.adminToken}` },
      payload: { name: 'Welcome', body: 'Welcome {name}!', provider: 'sms' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const templateId = res.json().data.id as number;
    const { result } = await runBlock(h, 'SendMessage', { template_id: templateId }, ann);
    expect(result).toMatchObject({ kind: 'next' });
    expect(h.sandbox.sentMessages({ to: ANN }).at(-1)?.body).toBe('Welcome Ann Lee!');
  });

  it('an opted-out contact: the step fails without a retry, the journey goes on, nothing is sent', async () => {
    const bob = await addContact(h, { phone: '+14155550143', first_name: 'Bob' });
    await h.q('update contacts set opted_out_at = now() where id = $1', [bob]);
    const { result } = await runBlock(h, 'SendMessage', { body: 'Hello' }, bob);
    expect(result).toEqual({
      kind: 'fail',
      error: 'messages.opted_out',
      continueRun: true,
      detail: { refused: 'messages.opted_out' },
    });
    expect(h.sandbox.sentMessages({ to: '+14155550143' })).toHaveLength(0);
    const [n] = await h.q<{ n: number }>('select count(*)::int as n from messages where contact_id = $1', [
      bob,
    ]);
    expect(n?.n).toBe(0);
  });

  it('restricted content is refused the same way', async () => {
    const { result } = await runBlock(h, 'SendMessage', { body: 'Buy cheap weed and cannabis now' }, ann);
    expect(result).toMatchObject({ kind: 'fail', error: 'messages.restricted_content', continueRun: true });
  });
});
