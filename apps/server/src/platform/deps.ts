import type { Logger } from 'pino';
import type { CarrierDeps } from './carrier/platform.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { TenantDbs } from './db/tenant-db.ts';
import type { EventBus } from './events/events.ts';
import type { FileStore } from './files.ts';
import type { Mailer } from './mail.ts';
import type { Outbound } from './outbound/guard.ts';
import type { Payments } from './payments/payments.ts';
import type { Ports } from './ports.ts';
import type { Queue } from './queue/queue.ts';
import type { Hub } from './realtime/hub.ts';
import type { Secrets } from './secrets.ts';

/** What services need from the platform; built once in app.ts and passed down. */
export type Deps = {
  /**
   * The platform's database handle: platform-level work, as a member of PLATFORM_ROLE (every row). A
   * tenant's work takes `tenants.of(...)` through its context (decision 097).
   */
  db: Db;
  /** The tenants' handles, as TENANT_ROLE under row-level security. */
  tenants: TenantDbs;
  config: Config;
  mailer: Mailer;
  log: Logger;
  queue: Queue;
  events: EventBus;
  realtime: Hub;
  secrets: Secrets;
  /** Carriers per agency account (real Twilio or the process's sandbox), and the sandbox itself. */
  carrier: CarrierDeps;
  /** Uploaded and received files: local disk or an S3-compatible bucket (ADR 040). */
  storage: FileStore;
  /** The one way to fetch an address that came from outside (ADR 049). */
  outbound: Outbound;
  /** Stripe through its SDK: real Stripe, or the platform's Stripe sandbox for sandbox keys (ADR 076). */
  payments: Payments;
  /** What lower modules ask of higher ones, wired in app.ts (ADR 054). */
  ports: Ports;
};
