import type { TInstallSettings } from '@stn/contracts/installs';
import { boolean, index, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantKeys } from '../businesses/tables.ts';

/**
 * A widget install: one business's widget on one website. The key is public (it sits in the page's
 * script tag): it names the install, it does not authenticate a person. `settings` holds what the widget
 * shows; all of it is public.
 */
export const installs = pgTable(
  'installs',
  {
    id: serial('id').primaryKey(),
    ...tenantKeys(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    website: text('website').notNull().default(''),
    /** Which list it is in (spec 000 §4): active, archived or deleted. */
    status: text('status').$type<'active' | 'archived' | 'deleted'>().notNull().default('active'),
    /** The toggle-active switch: an install in the active list that is switched off takes no requests. */
    active: boolean('active').notNull().default(true),
    settings: jsonb('settings').$type<Partial<TInstallSettings>>().notNull().default({}),
    widget_icon: text('widget_icon'),
    logo: text('logo'),
    archived_at: timestamp('archived_at', { withTimezone: true }),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('installs_key_idx').on(t.key), index('installs_business_idx').on(t.business_id)],
);
