import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's package folder (apps/server), found from this file whether it runs from its source under
 * src/ (tsx: `npm run dev`, the tests) or bundled into dist/ (`npm start`, the browser tests; ADR 112):
 * the nearest folder above that holds the migrations' journal.
 */
export const SERVER_DIR = serverDir(import.meta.dirname);

function serverDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'drizzle', 'meta', '_journal.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no drizzle/meta/_journal.json above ${from}`);
  }
}
