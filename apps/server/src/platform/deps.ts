import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './mail.ts';

/** What services need from the platform; built once in app.ts and passed down. */
export type Deps = { db: Db; config: Config; mailer: Mailer; log: Logger };
