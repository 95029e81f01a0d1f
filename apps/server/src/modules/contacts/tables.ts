import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, tz } from '../../platform/db/columns.ts';
import { businesses, tenantKeys } from '../businesses/tables.ts';
import { installs } from '../installs/tables.ts';

// The contacts module's tables: a business's contacts (one per phone number), their custom fields, tags,
// and the business's own suppression list (opt-outs are ours to keep: a carrier's STOP applies only to the
// number that received it). Phones are E.164; times UTC.

export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    /** The install whose number the conversation runs on (the last one used). */
    install_id: integer('install_id').references(() => installs.id, { onDelete: 'set null' }),
    phone: text('phone').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    email: text('email'),
    birthday: date('birthday'),
    anniversary: date('anniversary'),
    /** Values of the business's custom fields, by field key. */
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    /** How the contact came: sms, voice (a call), cms (a lead form or the widget's form). */
    source: text('source').$type<'sms' | 'voice' | 'cms'>().notNull().default('sms'),
    /** The agent the conversation is assigned to. */
    agent_user_id: integer('agent_user_id'),
    on_top: boolean('on_top').notNull().default(false),
    /** The contact's own IANA time zone when known (quiet hours of broadcasts, ADR 061). */
    time_zone: text('time_zone'),
    opted_out_at: tz('opted_out_at'),
    blocked_at: tz('blocked_at'),
    last_message_at: tz('last_message_at'),
    /**
     * How many messages in the conversation has had, kept by a trigger on messages (ADR 103): a user's
     * unread count there is this less `conversation_reads.seen_in_count`.
     */
    in_count: integer('in_count').notNull().default(0),
    /** When the contact's latest call (callback, scheduled or inbound) was asked for (ADR 052). */
    last_call_at: tz('last_call_at'),
    /** When the contact's latest lead form was sent (issue 21): it moves the conversation up the inbox. */
    last_lead_at: tz('last_lead_at'),
    deleted_at: tz('deleted_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contacts_business_phone_uq').on(t.business_id, t.phone).where(sql`${t.deleted_at} is null`),
    index('contacts_install_idx').on(t.install_id, t.last_message_at),
    // Opt-outs by time: the analytics rollups count them by day (ADR 081).
    index('contacts_opted_out_idx').on(t.opted_out_at).where(sql`${t.opted_out_at} is not null`),
  ],
);

/**
 * The messages in of a business's live contacts, summed by install and assigned agent (0 for none), kept by
 * a trigger on contacts (issue 27, ADR 104): a user's unread total is the sum over the groups it sees less
 * what it has seen, so the total no longer reads every contact. Derived rows: no foreign keys.
 */
export const contactInTotals = pgTable(
  'contact_in_totals',
  {
    agency_id: integer('agency_id').notNull(),
    business_id: integer('business_id').notNull(),
    install_id: integer('install_id').notNull(),
    agent_user_id: integer('agent_user_id').notNull(),
    /** A group is kept in stripes, one per writing connection's process id modulo 16 (no queue on one row). */
    stripe: smallint('stripe').notNull(),
    in_sum: bigint('in_sum', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.business_id, t.install_id, t.agent_user_id, t.stripe] })],
);

/** A custom field of the business's contacts (GET /v1/contacts/fields). */
export const contactFields = pgTable(
  'contact_fields',
  {
    id: serial('id').primaryKey(),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    key: text('key').notNull(),
    label: text('label').notNull(),
    type: text('type').$type<'text' | 'number' | 'date' | 'email' | 'phone'>().notNull().default('text'),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('contact_fields_key_uq').on(t.business_id, t.key)],
);

export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('tags_name_uq').on(t.business_id, sql`lower(${t.name})`)],
);

export const contactTags = pgTable(
  'contact_tags',
  {
    contact_id: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    tag_id: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    created_at: tz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contact_tags_uq').on(t.contact_id, t.tag_id),
    index('contact_tags_tag_idx').on(t.tag_id),
  ],
);

/** Contacts added to an automation (the automations issue decides what that starts; here it is recorded). */
export const contactAutomations = pgTable(
  'contact_automations',
  {
    contact_id: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    automation_id: integer('automation_id').notNull(),
    created_at: tz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contact_automations_uq').on(t.contact_id, t.automation_id)],
);

/** A CSV import of contacts, worked by the contacts.import job; the web app reads its progress. */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    user_id: integer('user_id'),
    install_id: integer('install_id').references(() => installs.id, { onDelete: 'set null' }),
    status: text('status').$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('queued'),
    /** The file's text until the job has read it. */
    csv: text('csv'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    imported: integer('imported').notNull().default(0),
    /** A phone already a contact (or earlier in the file): `skip` the row or `update` the contact (ADR 052). */
    duplicates: text('duplicates').$type<'skip' | 'update'>().notNull().default('skip'),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** Times a stalled run (its process gone) was taken over; past the limit the import fails (ADR 052). */
    resumes: integer('resumes').notNull().default(0),
    /** The pg-boss job of the last take-over: while it waits to be worked, the import is not stalled. */
    resume_job: text('resume_job'),
    /** Bad rows: the file's line and a message key with its parameters (translated when read). */
    errors: jsonb('errors')
      .$type<{ line: number; key: string; params?: Record<string, string | number> }[]>()
      .notNull()
      .default([]),
    ...timestamps,
  },
  (t) => [
    index('contact_imports_business_idx').on(t.business_id),
    index('contact_imports_running_idx').on(t.updated_at).where(sql`${t.status} = 'running'`),
  ],
);
