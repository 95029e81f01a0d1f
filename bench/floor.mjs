// `bench/floor`: what this machine charges for the work every text and callback cannot avoid (see
// bench/floor/bench.ts): an HTTP request on loopback, layer by layer, and a statement's round trip. The
// other benches' CPU figures read against it (the machine's day moves them all). Runs it with tsx.
import { runBench } from './lib/busy.mjs';

process.exitCode = runBench('bench/floor/bench.ts', process.argv.slice(2));
