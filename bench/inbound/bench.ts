// Inbound texts (issue 10): signed SMS webhooks (/webhooks/twilio/sms-in) sent at a steady rate over
// loopback HTTP to a real server on 127.0.0.1, with a WebSocket client of the business connected. Prints
// the sustained throughput, the latency from the webhook's send until the client receives its
// `new_message` (median, p99), and counts: every message stored once, every event received once (a tenth
// of the webhooks are delivered twice, as carriers retry). Goal: >= 1,000/s with p99 < 100 ms.
// BENCH_MESSAGES, BENCH_RPS and BENCH_CONNECTIONS change the load.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import WebSocket from 'ws';
import { buildApp } from '../../apps/server/src/app.ts';
import { agencyCarrierAccount } from '../../apps/server/src/modules/agencies/service.ts';
import { DEMO_INSTALL_NUMBER } from '../../apps/server/src/modules/telephony/service.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db/open.ts';
import { twilioSignature } from '../../apps/server/src/platform/webhooks/tree.ts';
import { seedFirstStart } from '../../apps/server/src/seed.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const RPS = Number(process.env.BENCH_RPS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PUBLIC = 'http://localhost:3000';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-bench-inbound-'));
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  DEMO_DATA: 'true',
  LOG_LEVEL: 'fatal',
  PUBLIC_URL: PUBLIC,
  CARRIER_SANDBOX: 'true',
});
const log = pino({ level: 'fatal' });
const database = await openDatabase(config, () => undefined);
await seedFirstStart({ db: database.db, config, log });
const app = await buildApp({ config, db: database.db, logger: log });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;

const { rows } = await database.pool.query(
  `select n.agency_id, n.business_id from numbers n join businesses b on b.id = n.business_id
    where b.name = 'Bright Dental' and n.phone_number = $1 and n.released_at is null`,
  [DEMO_INSTALL_NUMBER],
);
const demo = rows[0] as { agency_id: number; business_id: number } | undefined;
if (!demo) throw new Error('no demo number');
const found = await agencyCarrierAccount(app.deps, demo.agency_id);
if (!found) throw new Error('no demo carrier account');
const account = found;

// The business's user, signed in, on a WebSocket.
const signIn = await app.inject({
  method: 'POST',
  url: '/api/v1/login',
  payload: { email: 'admin@brightdental.test', password: 'demo-dental-1' },
});
const token = signIn.json().access_token as string | undefined;
if (!token) throw new Error(`sign-in failed: ${signIn.body}`);
const now = () => performance.now();
const sentAt = new Map<string, number>();
const latency: number[] = [];
const eventsOf = new Map<string, number>();
const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['bearer', token]);
await new Promise<void>((resolve, reject) => {
  ws.on('message', (raw) => {
    const msg = JSON.parse(raw.toString()) as { type: string; data?: { message?: { body?: string } } };
    if (msg.type === 'ready') resolve();
    if (msg.type !== 'new_message') return;
    const key = msg.data?.message?.body ?? '';
    const n = (eventsOf.get(key) ?? 0) + 1;
    eventsOf.set(key, n);
    const t = sentAt.get(key);
    if (n === 1 && t !== undefined) latency.push(now() - t);
  });
  ws.on('error', reject);
});

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const SMS_PATH = '/webhooks/twilio/sms-in';
function post(params: Record<string, string>): Promise<number> {
  const body = new URLSearchParams(params).toString();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: SMS_PATH,
        agent,
        headers: {
          host: 'localhost:3000',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'x-twilio-signature': twilioSignature(account.authToken, `${PUBLIC}${SMS_PATH}`, params),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

const params = (i: number, tag: string) => ({
  AccountSid: account.accountSid,
  MessageSid: `SM${crypto.createHash('md5').update(`${tag}-${i}`).digest('hex')}`,
  From: `+1415${String(5_000_000 + (i % 2_000)).padStart(7, '0')}`,
  To: DEMO_INSTALL_NUMBER,
  Body: `${tag} message ${i}`,
  NumMedia: '0',
});

let failed = 0;
async function run(count: number, rps: number, tag: string) {
  const started = now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rps;
    const wait = due - now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const p = params(i, tag);
    sentAt.set(p.Body, now());
    const once = post(p).then((s) => {
      if (s !== 200) failed++;
    });
    inflight.push(once);
    // A tenth are delivered again (a carrier retry), at once.
    if (i % 10 === 0) inflight.push(post(p).then((s) => void (s !== 200 && failed++)));
  }
  await Promise.all(inflight);
  return now() - started;
}

// Warm-up (not counted): the first requests compile the code paths and fill the pools.
await run(Math.min(500, MESSAGES), Math.min(RPS, 500), 'warm');
await new Promise((resolve) => setTimeout(resolve, 1000));
latency.length = 0;
failed = 0;

console.log(
  `inbound bench: ${MESSAGES} signed SMS webhooks at ${RPS}/s (+10% redelivered), ${CONNECTIONS} connections`,
);
const cpu0 = process.cpuUsage();
const wall = await run(MESSAGES, RPS, 'bench');
const until = now() + 10_000;
while (now() < until && latency.length < MESSAGES) await new Promise((r) => setTimeout(r, 50));

latency.sort((a, b) => a - b);
const pick = (q: number) =>
  latency[Math.min(latency.length - 1, Math.floor(q * latency.length))] ?? Number.NaN;
const stored = await database.pool.query(
  `select count(*)::int as n, count(distinct carrier_sid)::int as d from messages where body like 'bench message %'`,
);
const events = [...eventsOf.entries()].filter(([k]) => k.startsWith('bench '));
const doubled = events.filter(([, n]) => n > 1).length;
const throughput = MESSAGES / (wall / 1000);
console.log(
  `  throughput ${throughput.toFixed(0)} messages/s sustained (all answered in ${(wall / 1000).toFixed(1)} s; goal >= 1000/s: ${throughput >= 1000 && wall / 1000 <= (MESSAGES / RPS) * 1.05 ? 'met' : 'NOT met'})`,
);
console.log(
  `  webhook sent -> new_message on the socket: n=${latency.length} median ${pick(0.5).toFixed(1)} ms  p99 ${pick(0.99).toFixed(1)} ms (goal p99 < 100 ms: ${pick(0.99) < 100 ? 'met' : 'NOT met'})`,
);
console.log(
  `  stored ${stored.rows[0].n} messages (${stored.rows[0].d} distinct sids) of ${MESSAGES}; events received for ${events.length}, doubled ${doubled}; non-200 answers ${failed}; lost ${MESSAGES - stored.rows[0].n}`,
);
const cpu = process.cpuUsage(cpu0);
console.log(
  `  this process's CPU: ${((cpu.user + cpu.system) / 1000 / MESSAGES).toFixed(2)} ms a message; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores (figures mean little on a busy machine)`,
);
ws.terminate();
agent.destroy();
await app.close();
await database.close();
process.exit(0);
