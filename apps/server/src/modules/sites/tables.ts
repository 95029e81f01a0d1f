import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';

// A foreign key to another module's table is the one reason a tables.ts imports another module's
// tables.ts (the architecture test allows it from tables.ts only).

/** White-label entries: an agency's custom domain and the state of its TLS certificate. */
export const whitelabels = pgTable(
  'whitelabels',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    type: text('type').$type<'domain' | 'subdomain'>().notNull().default('domain'),
    cert_status: text('cert_status')
      .$type<'none' | 'pending' | 'issued' | 'failed'>()
      .notNull()
      .default('none'),
    cert_message: text('cert_message'),
    cert_requested_at: timestamp('cert_requested_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('whitelabels_domain_uq').on(sql`lower(${t.domain})`)],
);

/** Editable pages: training, terms-of-services, privacy-policy; platform-wide (agency_id null) or an agency's. */
export const pages = pgTable(
  'pages',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id').references(() => agencies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('pages_key_uq').on(sql`coalesce(${t.agency_id}, 0)`, t.key)],
);

export const releaseNotes = pgTable('release_notes', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  published: boolean('published').notNull().default(true),
  published_at: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  author_id: integer('author_id'),
  ...timestamps,
});
