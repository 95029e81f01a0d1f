// AI drafts (issue 25, ADR 086) with the in-process stand-in (no AI_BASE_URL): access by the business's AI
// switch and its plan, the monthly limit per business, the contract.
import { AI_DRAFTS_PER_MONTH } from '@stn/contracts/ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { expect422, rows, useSuite } from '../../../test/helpers.ts';
import { usageMonth } from './service.ts';

const c = useSuite();
const URL = '/api/v1/businesses/generate-ai-content';
const month = usageMonth(new Date());

const usage = async (businessId: number) =>
  (
    await rows(c.t, 'select count from ai_usage where business_id = $1 and month = $2', [businessId, month])
  )[0]?.count ?? 0;
const setAi = (businessId: number, on: boolean) =>
  rows(c.t, 'update businesses set ai_enabled = $2 where id = $1', [businessId, on]);

let a: string;
let b: string;
beforeAll(async () => {
  a = await c.token(c.seed.a.businessAdmin.email);
  b = await c.token(c.seed.b.businessAdmin.email);
});

describe('POST /v1/businesses/generate-ai-content', () => {
  it('is refused with 403 while the business has AI switched off, and counts nothing', async () => {
    await setAi(c.seed.a.business.id, false);
    const res = await c.api.post(a, URL, { kind: 'text', prompt: 'Our new opening hours' });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe('AI drafts are not enabled for this business.');
    expect(await usage(c.seed.a.business.id)).toBe(0);
  });

  it('writes a draft from the prompt with the stand-in, and counts it', async () => {
    await setAi(c.seed.a.business.id, true);
    // The web app shows the button by the profile's business summary.
    expect((await c.api.get(a, '/api/v1/profile')).json().data.user.business.ai_enabled).toBe(true);
    const res = await c.api.post(a, URL, {
      kind: 'template',
      prompt: 'Spring sale: 20% off all haircuts this week',
      tone: 'professional',
    });
    expect(res.statusCode, res.body).toBe(200);
    const draft: string = res.json().data.draft;
    expect(res.json().success).toBe(true);
    expect(draft).toContain('Spring sale: 20% off all haircuts this week');
    expect(draft.length).toBeLessThanOrEqual(1600);
    expect(await usage(c.seed.a.business.id)).toBe(1);
  });

  it('answers 422 with the field message for a bad body, and counts nothing', async () => {
    const before = await usage(c.seed.a.business.id);
    expect422(
      await c.api.post(a, URL, { kind: 'text', prompt: '   ' }),
      'prompt',
      'The prompt field is required',
    );
    expect422(
      await c.api.post(a, URL, { kind: 'text', prompt: 'x'.repeat(1001) }),
      'prompt',
      'The prompt may not be greater than 1000 characters.',
    );
    expect422(
      await c.api.post(a, URL, { kind: 'poem', prompt: 'hi' }),
      'kind',
      'The selected kind is invalid.',
    );
    expect(await usage(c.seed.a.business.id)).toBe(before);
  });

  it('is refused with 403 when the business plan has no AiIntegration, though its switch is on', async () => {
    const [plan] = await rows(
      c.t,
      `insert into plans (agency_id, name, features) values ($1, 'Basic', '{"AiIntegration": false}') returning id`,
      [c.seed.a.agency.id],
    );
    await rows(c.t, 'update businesses set subscription_plan_id = $2 where id = $1', [
      c.seed.a.business.id,
      plan.id,
    ]);
    const before = await usage(c.seed.a.business.id);
    const res = await c.api.post(a, URL, { kind: 'broadcast', prompt: 'Holiday closing' });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe('Your plan does not include AI drafts.');
    expect(await usage(c.seed.a.business.id)).toBe(before);
    // The plan with the key lets it through.
    await rows(c.t, `update plans set features = '{"AiIntegration": true}' where id = $1`, [plan.id]);
    expect((await c.api.post(a, URL, { kind: 'broadcast', prompt: 'Holiday closing' })).statusCode).toBe(200);
  });

  it('answers 429 past the monthly limit with nothing taken; another business counts apart', async () => {
    await rows(c.t, 'update ai_usage set count = $3 where business_id = $1 and month = $2', [
      c.seed.a.business.id,
      month,
      AI_DRAFTS_PER_MONTH,
    ]);
    const res = await c.api.post(a, URL, { kind: 'text', prompt: 'One more' });
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().message).toBe(
      `This business has used its ${AI_DRAFTS_PER_MONTH} AI drafts for this month. Please try again next month.`,
    );
    expect(await usage(c.seed.a.business.id)).toBe(AI_DRAFTS_PER_MONTH);

    // Business B: off by default, then its own count.
    expect((await c.api.post(b, URL, { kind: 'text', prompt: 'Hello' })).statusCode).toBe(403);
    expect(await usage(c.seed.b.business.id)).toBe(0);
    await setAi(c.seed.b.business.id, true);
    const ok = await c.api.post(b, URL, { kind: 'text', prompt: 'Your table is ready', tone: 'short' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.draft).toContain('Your table is ready');
    expect(await usage(c.seed.b.business.id)).toBe(1);
    expect(await usage(c.seed.a.business.id)).toBe(AI_DRAFTS_PER_MONTH);
  });

  it('speaks Spanish', async () => {
    await setAi(c.seed.b.business.id, false);
    const res = await c.t.app.inject({
      method: 'POST',
      url: URL,
      headers: { authorization: `Bearer ${b}`, 'accept-language': 'es' },
      payload: { kind: 'text', prompt: 'Hola' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Los borradores con IA no están activados para este negocio.');
  });
});
