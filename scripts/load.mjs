// A stress-like load for proving the suite steady (ADR 058): keeps N cores busy with busy loops until the
// duration is over or the process is stopped.
//
//   node scripts/load.mjs [--cores N] [--seconds S]     (defaults: every core, 1800 s)
//   node scripts/load.mjs & LOAD=$!; CI=true npm test; kill $LOAD
import os from 'node:os';
import { parseArgs } from 'node:util';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

if (isMainThread) {
  const { values } = parseArgs({
    options: {
      cores: { type: 'string', default: String(os.availableParallelism()) },
      seconds: { type: 'string', default: '1800' },
    },
  });
  const cores = Number(values.cores);
  const seconds = Number(values.seconds);
  if (!Number.isInteger(cores) || cores < 1 || !(seconds > 0)) {
    console.error('usage: node scripts/load.mjs [--cores N] [--seconds S]');
    process.exit(2);
  }
  const until = Date.now() + seconds * 1000;
  const workers = Array.from(
    { length: cores },
    () => new Worker(new URL(import.meta.url), { workerData: until }),
  );
  console.log(
    `load: ${cores} busy ${cores === 1 ? 'core' : 'cores'} for up to ${seconds} s (pid ${process.pid})`,
  );
  const stop = () => {
    for (const w of workers) void w.terminate();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  // A busy loop that checks the clock now and then, so that it ends on time by itself.
  let x = 0;
  while (Date.now() < workerData) for (let i = 0; i < 1e6; i++) x = (x * 31 + i) % 1_000_003;
}
