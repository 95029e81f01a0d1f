// Inbound calls to an install's number: staff hear the whisper and press the key before the caller is
// bridged; nobody takes it and the caller hears the missed-call message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { addDemoNumber, callMissed, carrierFor, restoreSandboxNumbers } from './service.ts';
import { STAFF_1, STAFF_2, type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
const missed: { callId: number }[] = [];
const NUMBER = '+15005550099';

beforeAll(async () => {
  h = await telephonyApp();
  h.t.app.deps.events.on(callMissed, (p) => {
    missed.push(p);
  });
  const install = await h.install({ timeout: 20 }, { number: null });
  const ctx = tenantContext(
    h.t.app.deps,
    { level: 'business', agencyId: h.seed.a.agency.id, businessId: h.seed.a.business.id },
    { kind: 'system', source: 'seed', name: 'test' },
  );
  const carrier = await carrierFor(ctx);
  await carrier.purchaseNumber(NUMBER, { voiceUrl: 'http://localhost:3000/webhooks/twilio/voice' });
  await addDemoNumber(ctx, {
    agencyId: h.seed.a.agency.id,
    businessId: h.seed.a.business.id,
    installId: install.id,
    phoneNumber: NUMBER,
  });
});
afterAll(() => h?.close());

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const phone = (n: string) => h.sandbox.phones.get(n);

describe('inbound calls', () => {
  it('ring every staff phone; the one that presses the key is bridged with the caller', async () => {
    const caller = '+14155550401';
    h.sandbox.phones.dial(caller, NUMBER);
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    expect(phone(STAFF_2).state).toBe('ringing');
    h.sandbox.phones.answer(STAFF_1);
    await h.run(4000);
    expect(phone(STAFF_1).call?.heard.join(' ')).toContain('Incoming call from 4 1 5 5 5 5 0 4 0 1. Press 1');
    h.sandbox.phones.press(STAFF_1, '1');
    await h.run(1000);
    expect(phone(caller).call?.bridged_with).toBe(STAFF_1);
    expect(phone(STAFF_2).state).toBe('idle');
    await h.run(10_000);
    h.sandbox.phones.hangUp(caller);
    await h.run(2000);
    const [call] = await rows("select * from calls where kind = 'inbound' and visitor_phone = $1", [caller]);
    expect(call).toMatchObject({ outcome: 'completed', agent_phone: STAFF_1, agent_name: 'Front desk' });
    expect(call.connected_at).not.toBeNull();
  });

  it('is missed when nobody presses the key: the caller hears the message and may leave a voicemail', async () => {
    const caller = '+14155550402';
    h.sandbox.phones.dial(caller, NUMBER);
    await h.run(25_000);
    const [call] = await rows("select * from calls where kind = 'inbound' and visitor_phone = $1", [caller]);
    expect(call.outcome).toBe('missed');
    // Listeners run one after another after commit (the inbox's first): wait for the event, not a time.
    await expect.poll(() => missed.some((m) => m.callId === call.id), { timeout: 15_000 }).toBe(true);
    await h.run(8000);
    expect(phone(caller).call?.heard.join(' ')).toContain('Sorry, nobody could take your call');
    h.sandbox.phones.hangUp(caller);
    await h.run(2000);
    expect(await rows('select * from voice_records where call_id = $1', [call.id])).toHaveLength(1);
  });

  it("reach an install's number the sandbox had forgotten, once the start-up step put it back", async () => {
    const install = await h.install({ timeout: 20 }, { number: '+15005550098' });
    expect(install.id).toBeGreaterThan(0);
    expect(await restoreSandboxNumbers(h.t.app.deps)).toBeGreaterThanOrEqual(2);
    h.sandbox.phones.dial('+14155550403', '+15005550098');
    await h.run(1000);
    expect(phone(STAFF_1).state).toBe('ringing');
    const [call] = await rows("select * from calls where kind = 'inbound' and visitor_phone = $1", [
      '+14155550403',
    ]);
    expect(call.install_id).toBe(install.id);
    await h.run(60_000);
  });
});
