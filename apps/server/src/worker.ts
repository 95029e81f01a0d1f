// A worker-only process (`npm run worker`): the same app and registrations as the server, with the job
// workers on and no HTTP listener, so that jobs can be worked by processes apart from the API ones
// (which then run with WORKERS=off). Any number of them may run against one database.
import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { openDatabase } from './platform/db/open.ts';
import { StorageError } from './platform/files.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = { ...loadConfig(), workers: 'inline' };
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel }).child({ process: 'worker' });
  const database = await openDatabase(config, (m) => log.info(m));
  const app = await buildApp({ config, db: database.db, logger: log }).catch(async (err) => {
    // Settings that look right but do not work (S3 keys the store refuses): said plainly, no stack.
    if (!(err instanceof StorageError)) throw err;
    console.error(err.message);
    await database.close();
    process.exit(1);
  });
  await app.ready();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker stopping: finishing the jobs in flight');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.close().catch((err) => log.error({ err }, 'closing the worker failed'));
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Said once a stop is handled: a supervisor (or a test) that stops it on this line gets a clean stop.
  log.info('worker started: working jobs');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
