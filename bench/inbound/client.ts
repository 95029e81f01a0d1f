// The carrier's side of bench/inbound, in its own process (as a carrier is not in ours): signed SMS
// webhooks at a steady rate over loopback HTTP (a tenth delivered twice, as carriers retry), and the
// business user's WebSocket, timing each text from its webhook's send until its `new_message` arrives.
// Told what to do by bench.ts (BENCH_CLIENT, JSON); reports over the IPC channel.
import crypto from 'node:crypto';
import http from 'node:http';
import WebSocket from 'ws';
import { twilioSignature } from '../../apps/server/src/platform/webhooks/tree.ts';

type Setup = {
  port: number;
  token: string;
  accountSid: string;
  authToken: string;
  to: string;
  messages: number;
  rps: number;
  connections: number;
  publicUrl: string;
  /** The bodies' and sids' tag (`bench` unless told): runs on one database tell theirs apart. */
  tag?: string;
  /** After the warm-up, say `warmed` and wait for `go` (the parent refreshes the planner's statistics). */
  awaitGo?: boolean;
};
const setup = JSON.parse(process.env.BENCH_CLIENT ?? '{}') as Setup;
const TAG = setup.tag ?? 'bench';
/** What this client reports when it is done (bench/inbound and bench/multi read it). */
export type ClientDone = {
  wall: number;
  n: number;
  median: number;
  p99: number;
  max: number;
  events: number;
  doubled: number;
  failed: number;
  cpuMs: number;
};

const send = (m: unknown) => process.send?.(m);

const now = () => performance.now();
const sentAt = new Map<string, number>();
const latency: number[] = [];
const eventsOf = new Map<string, number>();
const ws = new WebSocket(`ws://127.0.0.1:${setup.port}/ws`, ['bearer', setup.token]);
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

const agent = new http.Agent({ keepAlive: true, maxSockets: setup.connections });
const SMS_PATH = '/webhooks/twilio/sms-in';
function post(params: Record<string, string>): Promise<number> {
  const body = new URLSearchParams(params).toString();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: setup.port,
        method: 'POST',
        path: SMS_PATH,
        agent,
        headers: {
          host: new URL(setup.publicUrl).host,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'x-twilio-signature': twilioSignature(setup.authToken, `${setup.publicUrl}${SMS_PATH}`, params),
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

/** The phones the texts come from, in turn. */
const PHONES = 2_000;
const params = (i: number, tag: string) => ({
  AccountSid: setup.accountSid,
  MessageSid: `SM${crypto.createHash('md5').update(`${tag}-${i}`).digest('hex')}`,
  From: `+1415${String(5_000_000 + (i % PHONES)).padStart(7, '0')}`,
  To: setup.to,
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
    inflight.push(post(p).then((s) => void (s !== 200 && failed++)));
    // A tenth are delivered again (a carrier retry), at once.
    if (i % 10 === 0) inflight.push(post(p).then((s) => void (s !== 200 && failed++)));
  }
  await Promise.all(inflight);
  return now() - started;
}

// Warm-up (not counted): the first requests compile the code paths and fill the pools; told to, every phone
// of the run texts once (its contact exists, as most texters' do on a running install).
await run(
  setup.awaitGo ? Math.min(PHONES, setup.messages) : Math.min(500, setup.messages),
  Math.min(setup.rps, 500),
  `${TAG}-warm`,
);
if (setup.awaitGo) {
  const go = new Promise<void>((resolve) =>
    process.on('message', (m: { type?: string }) => m.type === 'go' && resolve()),
  );
  send({ type: 'warmed' });
  await go;
}
await new Promise((resolve) => setTimeout(resolve, 1000));
latency.length = 0;
failed = 0;

send({ type: 'start' });
const cpu0 = process.cpuUsage();
const wall = await run(setup.messages, setup.rps, TAG);
const until = now() + 10_000;
while (now() < until && latency.length < setup.messages) await new Promise((r) => setTimeout(r, 50));
const cpu = process.cpuUsage(cpu0);
latency.sort((a, b) => a - b);
const pick = (q: number) =>
  latency[Math.min(latency.length - 1, Math.floor(q * latency.length))] ?? Number.NaN;
const events = [...eventsOf.entries()].filter(([k]) => k.startsWith(`${TAG} `));
send({
  type: 'done',
  wall,
  n: latency.length,
  median: pick(0.5),
  p99: pick(0.99),
  max: latency.at(-1) ?? Number.NaN,
  events: events.length,
  doubled: events.filter(([, n]) => n > 1).length,
  failed,
  cpuMs: (cpu.user + cpu.system) / 1000,
});
ws.terminate();
agent.destroy();
process.exit(0);
