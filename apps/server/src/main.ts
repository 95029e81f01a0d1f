import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './platform/config.ts';
import { openDatabase } from './platform/db/open.ts';
import { StorageError } from './platform/files.ts';
import { seedFirstStart } from './seed.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel });
  const database = await openDatabase(config, (m) => log.info(m));
  const demo = await seedFirstStart({ db: database.db, config, log });
  const app = await buildApp({ config, db: database.db, logger: log }).catch(async (err) => {
    // Settings that look right but do not work (S3 keys the store refuses): said plainly, no stack.
    if (!(err instanceof StorageError)) throw err;
    console.error(err.message);
    await database.close();
    process.exit(1);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Stop taking requests, let the ones in flight finish, then close the database.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.close().catch((err) => log.error({ err }, 'closing the server failed'));
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Port taken or the like: say so plainly, and do not leave the embedded database behind.
    console.error(`Cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
    await database.close();
    process.exit(1);
  }
  const url = `http://${config.mainDomain}:${config.port}`;
  const lines = ['', `  Start Texting Now is running on ${url}`, `  API documentation: ${url}/api/docs`];
  if (demo.length > 0) {
    lines.push('', '  Demo sign-ins:');
    for (const d of demo)
      lines.push(`    ${d.label.padEnd(38)} ${d.email.padEnd(29)} ${d.password.padEnd(15)}(${d.site})`);
    lines.push(
      '',
      `  The demo install's website widget: ${url}/widget-demo (answer it on Calls → Sandbox Phones)`,
    );
  }
  lines.push('', '  Press Ctrl+C to stop.', '');
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
