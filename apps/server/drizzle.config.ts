import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Platform tables, plus the tables each module owns (modules/<name>/tables.ts).
  schema: ['./apps/server/src/platform/db/schema.ts', './apps/server/src/modules/*/tables.ts'],
  out: './apps/server/drizzle',
});
