// AI drafts against an OpenAI-compatible HTTP server (ADR 086): a stand-in started here on 127.0.0.1 as
// AI_BASE_URL. Loopback is refused by the outbound guard for URLs from outside; the operator's own
// AI_BASE_URL is the one origin let through (as CARRIER_SANDBOX_URL and S3_ENDPOINT are trusted).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, useSuite } from '../../../test/helpers.ts';
import { usageMonth } from './service.ts';

type Seen = { url: string; authorization: string | undefined; body: Record<string, unknown> };
const seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({
      url: req.url ?? '',
      authorization: req.headers.authorization,
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
});

// Filled before useSuite's own beforeAll builds the app on it.
const env: Record<string, string> = {};
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  env.AI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  env.AI_API_KEY = 'sk-test-123';
  env.AI_MODEL = 'draft-model-1';
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const c = useSuite({ env });
const URL = '/api/v1/businesses/generate-ai-content';
const usage = async () =>
  (
    await rows(c.t, 'select count from ai_usage where business_id = $1 and month = $2', [
      c.seed.a.business.id,
      usageMonth(new Date()),
    ])
  )[0]?.count ?? 0;

describe('AI drafts through AI_BASE_URL', () => {
  it('posts the model, the messages and the bearer key to <base>/chat/completions and answers its draft', async () => {
    await rows(c.t, 'update businesses set ai_enabled = true where id = $1', [c.seed.a.business.id]);
    answer = {
      status: 200,
      body: {
        choices: [{ index: 0, message: { role: 'assistant', content: `  ${'Big news! '.repeat(200)}` } }],
      },
    };
    const token = await c.token(c.seed.a.businessAdmin.email);
    const res = await c.api.post(token, URL, {
      kind: 'broadcast',
      prompt: 'Grand reopening on Friday',
      tone: 'short',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Cut to a multi-part text.
    expect(res.json().data.draft).toBe('Big news! '.repeat(200).trim().slice(0, 1600));
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req?.url).toBe('/v1/chat/completions');
    expect(req?.authorization).toBe('Bearer sk-test-123');
    expect(req?.body.model).toBe('draft-model-1');
    const messages = req?.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]?.content).toContain('broadcast');
    expect(messages[0]?.content).toContain('tone: short');
    expect(messages[1]?.content).toBe('Grand reopening on Friday');
    expect(await usage()).toBe(1);
  });

  it('answers 503 when the API fails, and gives the draft back', async () => {
    answer = { status: 500, body: { error: { message: 'overloaded' } } };
    const token = await c.token(c.seed.a.businessAdmin.email);
    const res = await c.api.post(token, URL, { kind: 'text', prompt: 'Hi' });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ success: false, code: 'UNAVAILABLE' });
    expect(res.json().message).toBe(
      'The AI service could not write a draft right now. Please try again later.',
    );
    expect(res.body).not.toContain('overloaded');
    expect(await usage()).toBe(1);

    answer = { status: 200, body: { choices: [] } };
    expect((await c.api.post(token, URL, { kind: 'text', prompt: 'Hi' })).statusCode).toBe(503);
    expect(await usage()).toBe(1);
  });
});
