import type { TCustomTypePage } from '@stn/contracts/roles';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../platform/db/columns.ts';
import { agencies } from '../agencies/tables.ts';
import { businesses } from '../businesses/tables.ts';

// A foreign key to another module's table is the one reason a tables.ts imports another module's
// tables.ts (the architecture test allows it from tables.ts only).

export type UserSettings = Record<string, unknown> & {
  language?: 'en' | 'es' | 'br';
  custom_type_pages?: TCustomTypePage[];
  email_unsubscribed?: boolean;
  /** What's new (issue 23): the publication time of the newest release note the user has seen. */
  release_notes_read_at?: string;
};

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Null for platform admins; set for every agency and business user. */
    agency_id: integer('agency_id').references(() => agencies.id),
    business_id: integer('business_id').references(() => businesses.id),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    avatar: text('avatar'),
    role_group: text('role_group').$type<'Admin' | 'Agency' | 'Business'>().notNull(),
    role: text('role')
      .$type<'SuperAdmin' | 'Admin' | 'AgencyAdmin' | 'AgencyUser' | 'BusinessAdmin' | 'BusinessUser'>()
      .notNull(),
    user_type: text('user_type').$type<'1' | '2' | '3' | '4'>(),
    agent_type: text('agent_type').$type<'agent' | 'smsAgent' | 'voiceAgent'>(),
    /** The phone a voice agent is rung on for callbacks (E.164), or null. */
    phone: text('phone'),
    settings: jsonb('settings').$type<UserSettings>().notNull().default({}),
    countries: jsonb('countries').$type<string[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    email_verified_at: timestamp('email_verified_at', { withTimezone: true }),
    password_changed_at: timestamp('password_changed_at', { withTimezone: true }),
    /**
     * Who disabled this user with its tenant ('agency:12' archived, 'business:34' deleted): the restore
     * re-enables exactly these users, never one disabled on its own (null).
     */
    suspended_by: text('suspended_by'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    index('users_agency_idx').on(t.agency_id),
    index('users_business_idx').on(t.business_id),
  ],
);

export const departments = pgTable(
  'departments',
  {
    id: serial('id').primaryKey(),
    agency_id: integer('agency_id')
      .notNull()
      .references(() => agencies.id),
    business_id: integer('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('departments_business_idx').on(t.business_id)],
);

/** Which users answer a department's texts (sms) and calls (voice). */
export const departmentAgents = pgTable(
  'department_agents',
  {
    department_id: integer('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agency_id: integer('agency_id').notNull(),
    business_id: integer('business_id').notNull(),
    channel: text('channel').$type<'sms' | 'voice'>().notNull(),
  },
  (t) => [uniqueIndex('department_agents_uq').on(t.department_id, t.user_id, t.channel)],
);
