// BENCH_LOCKS=1 (the inbound and callback benches): what the server's statements waited on, sampled every
// 5 ms from pg_stat_activity and pg_blocking_pids: the waiting statement, the one it queued behind and what
// that one was doing (on CPU, flushing the WAL, waiting itself). A tail of the latencies is often a queue
// behind a lock held through another transaction's commit (ADR 125).
import type pg from 'pg';

const SAMPLE = `select w.wait_event_type || ':' || w.wait_event as ev, w.query as waiting, b.query as blocker,
    b.state || ' ' || coalesce(b.wait_event_type || ':' || b.wait_event, 'on CPU') as doing
  from pg_stat_activity w, unnest(pg_blocking_pids(w.pid)) bp, pg_stat_activity b
  where w.wait_event_type = 'Lock' and b.pid = bp`;

const short = (text: unknown, n: number) => String(text).replace(/\s+/g, ' ').slice(0, n);

/** Starts sampling when BENCH_LOCKS=1; the stop answers the report's lines (none when off). */
export function sampleLockWaits(pool: pg.Pool): () => string[] {
  if (process.env.BENCH_LOCKS !== '1') return () => [];
  const waits = new Map<string, number>();
  let samples = 0;
  const timer = setInterval(() => {
    samples++;
    void pool
      .query(SAMPLE)
      .then(({ rows }) => {
        for (const row of rows) {
          const k = `${row.ev}: ${short(row.waiting, 60)} | behind (${row.doing}): ${short(row.blocker, 70)}`;
          waits.set(k, (waits.get(k) ?? 0) + 1);
        }
      })
      .catch(() => undefined);
  }, 5);
  return () => {
    clearInterval(timer);
    return [
      `  lock waits seen in ${samples} samples (every 5 ms; its own statements are counted in the figures):`,
      ...[...waits]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([k, v]) => `    ${String(v).padStart(5)}  ${k}`),
      ...(waits.size === 0 ? ['    none'] : []),
    ];
  };
}
