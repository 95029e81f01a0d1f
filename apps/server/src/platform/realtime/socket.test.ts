import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, login, seedTenants, type TestApp } from '../../../test/helpers.ts';
import { hasTestRedis, TEST_REDIS_URL } from '../../../test/redis.ts';
import { channel } from './hub.ts';

type Seed = Awaited<ReturnType<typeof seedTenants>>;
type Client = { ws: WebSocket; messages: { type: string; data?: unknown }[] };

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
}

/** Opens a socket and resolves once the server said which channels it joined. */
function connect(url: string, protocols?: string[]): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols);
    const client: Client = { ws, messages: [] };
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString());
      client.messages.push(msg);
      if (msg.type === 'ready') resolve(client);
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

/** Publishes a marker after the messages under test and waits for it: everything before it has arrived. */
async function settle(publish: (c: string, m: { type: string }) => Promise<void>, chan: string, c: Client) {
  const marker = `marker-${Math.random()}`;
  await publish(chan, { type: marker });
  await expect.poll(() => c.messages.some((m) => m.type === marker), { timeout: 5_000 }).toBe(true);
}

describe('/ws in one process', () => {
  let t: TestApp;
  let seed: Seed;
  let url: string;
  const open: WebSocket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    seed = await seedTenants(t.db);
    url = await listen(t);
  });
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    await t?.close();
  });

  it('refuses a socket without a token, or with a bad one', async () => {
    await expect(connect(url)).rejects.toThrow('refused: 401');
    await expect(connect(`${url}?token=garbage`)).rejects.toThrow('refused: 401');
    await expect(connect(url, ['bearer', 'garbage'])).rejects.toThrow('refused: 401');
  });

  it('delivers an event for business A to A clients only, never to business B', async () => {
    const tokenA = await login(t.app, seed.a.businessUser.email);
    const tokenB = await login(t.app, seed.b.businessUser.email);
    // A browser's way (subprotocol) and the query parameter.
    const a = await connect(url, ['bearer', tokenA]);
    const b = await connect(`${url}?token=${tokenB}`);
    open.push(a.ws, b.ws);
    expect(a.ws.protocol).toBe('bearer');
    expect(a.messages[0]).toEqual({
      type: 'ready',
      data: { channels: [channel.user(seed.a.businessUser.id), channel.business(seed.a.business.id)] },
    });

    const hub = t.app.deps.realtime;
    await hub.publish(channel.business(seed.a.business.id), { type: 'new_message', data: { id: 1 } });
    await hub.publish(channel.user(seed.a.businessUser.id), { type: 'new_task', data: { id: 2 } });
    await settle(hub.publish, channel.business(seed.a.business.id), a);
    await settle(hub.publish, channel.business(seed.b.business.id), b);
    expect(a.messages.map((m) => m.type)).toContain('new_message');
    expect(a.messages.map((m) => m.type)).toContain('new_task');
    expect(b.messages.map((m) => m.type)).not.toContain('new_message');
    expect(b.messages.map((m) => m.type)).not.toContain('new_task');
  });

  it('puts agency users on their agency channel, and business users not on it', async () => {
    const agency = await connect(url, ['bearer', await login(t.app, seed.a.agencyAdmin.email)]);
    const biz = await connect(url, ['bearer', await login(t.app, seed.a.businessAdmin.email)]);
    open.push(agency.ws, biz.ws);
    const hub = t.app.deps.realtime;
    await hub.publish(channel.agency(seed.a.agency.id), { type: 'agency_news' });
    await settle(hub.publish, channel.agency(seed.a.agency.id), agency);
    await settle(hub.publish, channel.business(seed.a.business.id), biz);
    expect(agency.messages.map((m) => m.type)).toContain('agency_news');
    expect(biz.messages.map((m) => m.type)).not.toContain('agency_news');
  });
});

const REDIS_URL = TEST_REDIS_URL;
const hasRedis = await hasTestRedis('the cross-process realtime test');

describe.skipIf(!hasRedis)('/ws across processes through Redis', () => {
  let one: TestApp;
  let two: TestApp;
  let seed: Seed;
  const open: WebSocket[] = [];
  beforeAll(async () => {
    one = await createTestApp({ REDIS_URL });
    seed = await seedTenants(one.db);
    // A second app instance on the same database, as a second server process would be.
    const { buildApp } = await import('../../app.ts');
    const app = await buildApp({ config: one.config, db: one.db });
    await app.ready();
    two = { ...one, app, close: async () => app.close() };
  });
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    await two?.close();
    await one?.close();
  });

  it('delivers an event published by one process to a client of the other, and only to its tenant', async () => {
    const a = await connect(await listen(two), ['bearer', await login(one.app, seed.a.businessUser.email)]);
    const b = await connect(`ws://127.0.0.1:${(two.app.server.address() as AddressInfo).port}/ws`, [
      'bearer',
      await login(one.app, seed.b.businessUser.email),
    ]);
    open.push(a.ws, b.ws);
    // Published on process one, whose own sockets are none of these.
    const hub = one.app.deps.realtime;
    await hub.publish(channel.business(seed.a.business.id), { type: 'new_message', data: { from: 'one' } });
    await settle(hub.publish, channel.business(seed.a.business.id), a);
    await settle(hub.publish, channel.business(seed.b.business.id), b);
    expect(a.messages).toContainEqual({ type: 'new_message', data: { from: 'one' } });
    expect(b.messages.map((m) => m.type)).not.toContain('new_message');
  });
});
