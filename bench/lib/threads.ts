import fs from 'node:fs';

export type Threads = { main: Thread; others: Thread };
type Thread = { wakeups: number; cpuMs: number };

/**
 * This process's threads so far (Linux /proc/self/task; zeros elsewhere): how many times they went to sleep
 * and were woken (`voluntary_ctxt_switches`), and their CPU, the main thread (JavaScript) apart from the
 * others (V8's collector and compiler, libuv's pool, the profiler). On this kind of virtual machine each
 * wake-up costs CPU of its own, whatever little work follows it (ADR 125), so a bench prints them per unit.
 */
export function threads(): Threads {
  const out: Threads = { main: { wakeups: 0, cpuMs: 0 }, others: { wakeups: 0, cpuMs: 0 } };
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const task of tasks) {
    try {
      const status = fs.readFileSync(`/proc/self/task/${task}/status`, 'utf8');
      const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const into = task === String(process.pid) ? out.main : out.others;
      into.wakeups += Number(/^voluntary_ctxt_switches:\s*(\d+)/m.exec(status)?.[1] ?? 0);
      // utime and stime, at 100 clock ticks a second.
      into.cpuMs += (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** What `threads()` moved between two readings, per unit of work, as a line of a bench's report. */
export function threadsLine(before: Threads, after: Threads, units: number): string {
  const per = (a: number, b: number, digits: number) => ((b - a) / Math.max(1, units)).toFixed(digits);
  return `the main thread woken ${per(before.main.wakeups, after.main.wakeups, 1)} times (${per(
    before.main.cpuMs,
    after.main.cpuMs,
    2,
  )} ms of CPU), the other threads ${per(before.others.wakeups, after.others.wakeups, 1)} times (${per(
    before.others.cpuMs,
    after.others.cpuMs,
    2,
  )} ms)`;
}
