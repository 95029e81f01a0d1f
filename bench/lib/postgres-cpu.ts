import fs from 'node:fs';
import path from 'node:path';

/**
 * CPU time (ms) of the embedded PostgreSQL kept under `dataDir`: its postmaster and every backend (Linux
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
    }
    return total;
  } catch {
    return 0;
  }
}
