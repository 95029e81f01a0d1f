// `bench/callback`: 1,000 sandboxed callbacks at 20 requests a second against an in-process app (see
// bench/callback/bench.ts). Runs it with tsx; prints its figures. `--busy`: a quiet run, then one while
// another process keeps a core busy (bench/lib/busy.mjs).
import { runBench } from './lib/busy.mjs';

process.exitCode = runBench('bench/callback/bench.ts', process.argv.slice(2), {}, { wakeUp: true });
