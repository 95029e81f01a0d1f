// Splits this process's CPU between our server and the sandbox carrier running inside it (the callback
// bench, issue 27): the V8 sampling profiler runs during the measured part, and each sample goes to the
// first frame from the leaf that is the sandbox's (its code under platform/carrier/sandbox/, and undici,
// with which it calls our webhooks) or the server's (apps/server/src, Fastify, pg, drizzle, pg-boss, pino,
// node's HTTP server). Samples with neither (garbage collection, node internals) are shared in proportion.
// BENCH_NO_SPLIT=1: no profiler (its sampling wakes the main thread every 5 ms), and no split.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

type Node = { id: number; callFrame: { url: string; functionName: string }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const SANDBOX = [/\/platform\/carrier\/sandbox\//, /\/node_modules\/undici\//, /node:internal\/deps\/undici/];
const SERVER = [
  /\/apps\/server\/src\//,
  /\/node_modules\/(fastify|@fastify|find-my-way|light-my-request|pg|pg-protocol|pg-pool|drizzle-orm|pg-boss|pino|ws|fast-json-stringify|avvio)\//,
  /^node:_http_server/,
];

export async function startCpuSplit(): Promise<
  () => Promise<{ server: number; sandbox: number; other: number }>
> {
  if (process.env.BENCH_NO_SPLIT) return async () => ({ server: 0, sandbox: 0, other: 1 });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // Every 5 ms: a finer profile (V8's default is 1 ms) slows the measured server enough to move its p99.
  await session.post('Profiler.setSamplingInterval', { interval: 5_000 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    // BENCH_PROFILE=file: the measured part's profile, for a look at where the server's CPU goes.
    if (process.env.BENCH_PROFILE) writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const kindOf = new Map<number, 'server' | 'sandbox' | 'other' | 'idle'>();
    const classify = (id: number): 'server' | 'sandbox' | 'other' | 'idle' => {
      const known = kindOf.get(id);
      if (known) return known;
      const leaf = byId.get(id);
      let kind: 'server' | 'sandbox' | 'other' | 'idle' =
        leaf?.callFrame.functionName === '(idle)' ? 'idle' : 'other';
      for (let at: number | undefined = id; kind === 'other' && at !== undefined; at = parent.get(at)) {
        const url = byId.get(at)?.callFrame.url ?? '';
        if (SANDBOX.some((r) => r.test(url))) kind = 'sandbox';
        else if (SERVER.some((r) => r.test(url))) kind = 'server';
      }
      kindOf.set(id, kind);
      return kind;
    };
    const sums = { server: 0, sandbox: 0, other: 0, idle: 0 };
    profile.samples.forEach((id, i) => {
      sums[classify(id)] += profile.timeDeltas[i] ?? 0;
    });
    return { server: sums.server / 1000, sandbox: sums.sandbox / 1000, other: sums.other / 1000 };
  };
}
