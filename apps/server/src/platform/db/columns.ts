import { timestamp } from 'drizzle-orm/pg-core';

/** The created_at and updated_at columns most tables carry. */
export const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** A time column with its zone (every time is stored as an instant, UTC). */
export const tz = (name: string) => timestamp(name, { withTimezone: true });
