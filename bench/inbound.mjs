// `bench/inbound`: signed inbound SMS webhooks at a steady rate on loopback, to a real HTTP server (see
// bench/inbound/bench.ts). Runs it with tsx; prints its figures. `--busy`: a quiet run, then one while
// another process keeps a core busy (bench/lib/busy.mjs).
import { runBench } from './lib/busy.mjs';

process.exitCode = runBench('bench/inbound/bench.ts', process.argv.slice(2), {}, { wakeUp: true });
