import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each module keeps its tables in its own tables.ts; the platform's (sessions) live beside their code.
  schema: ['./apps/server/src/modules/*/tables.ts', './apps/server/src/platform/**/tables.ts'],
  out: './apps/server/drizzle',
});
