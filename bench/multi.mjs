// `bench/multi`: inbound texts through a round-robin load balancer to one API process, then two, with a
// worker, on one PostgreSQL and one Redis (see bench/multi/bench.ts; skipped when no Redis answers).
import { runBench } from './lib/busy.mjs';

process.exitCode = runBench('bench/multi/bench.ts', process.argv.slice(2));
