// The floor bench's carrier (bench/floor/bench.ts): keep-alive requests at a steady rate from another
// process, as bench/inbound's client sends its webhooks (64 connections). A warm-up first (not counted),
// then it says `start`, waits for `go`, sends the counted requests and says `done` with the status codes.
import http from 'node:http';

type Setup = {
  port: number;
  path: string;
  body: string;
  headers: Record<string, string>;
  count: number;
  rps: number;
};
const setup = JSON.parse(process.env.FLOOR_CLIENT ?? '{}') as Setup;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const codes = new Map<number, number>();

const post = () =>
  new Promise<void>((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: setup.port,
        method: 'POST',
        path: setup.path,
        agent,
        headers: { ...setup.headers, 'content-length': Buffer.byteLength(setup.body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          codes.set(res.statusCode ?? 0, (codes.get(res.statusCode ?? 0) ?? 0) + 1);
          resolve();
        });
      },
    );
    req.on('error', () => {
      codes.set(0, (codes.get(0) ?? 0) + 1);
      resolve();
    });
    req.end(setup.body);
  });

async function run(n: number): Promise<void> {
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const wait = started + (i * 1000) / setup.rps - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(post());
  }
  await Promise.all(inflight);
}

await run(Math.min(2_000, setup.count));
codes.clear();
process.send?.({ type: 'start' });
await new Promise((resolve) => process.once('message', resolve));
await run(setup.count);
process.send?.({ type: 'done', codes: Object.fromEntries(codes) });
process.exit(0);
