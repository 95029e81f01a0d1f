import fs from 'node:fs';
import path from 'node:path';

/**
 * CPU time (ms) of the embedded PostgreSQL kept under `dataDir`: its postmaster and every backend, running
 * or ended (Linux
 * /proc, at 100 clock ticks a second; 0 elsewhere).
 */
export function postgresCpuMs(dataDir: string): number {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const tick = 1000 / 100;
    let total = 0;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(entry) !== pid && Number(f[1]) !== pid) continue;
      total += (Number(f[11]) + Number(f[12])) * tick;
      // The postmaster's children that ended (a pool's idle connections closed): their CPU is its cutime
      // and cstime once reaped, else it would vanish from the sum between two readings.
      if (Number(entry) === pid) total += (Number(f[13]) + Number(f[14])) * tick;
    }
    return total;
  } catch {
    return 0;
  }
}
