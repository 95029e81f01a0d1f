// `bench/idle`: what the platform costs while nothing happens (see bench/idle/bench.ts): the CPU a second of
// its process and of PostgreSQL, and the statements it sends on its own. Runs it with tsx.
import { runBench } from './lib/busy.mjs';

// The statements' texts are kept, for the list of the most sent.
process.exitCode = runBench('bench/idle/bench.ts', process.argv.slice(2), { BENCH_SQL: '1' });
