import { defineConfig } from 'drizzle-kit';

// One migration folder, applied unchanged to PGlite and PostgreSQL (src/store/migrate.ts).
// Paths are relative to server/, where `npm run db:generate -w server` runs drizzle-kit.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/schema.ts',
  out: './drizzle',
});
