import { createScratchDatabase, type ScratchDatabase } from './database.ts';
import { BASE_URL_ENV } from './paths.ts';
import { startService } from './service.ts';

/**
 * Starts the real built service once for the whole run: a fresh PGlite data directory, or, when
 * DATABASE_URL is set, a fresh database on that PostgreSQL server. Workers start after this and
 * inherit the origin through the environment. The returned function is the global teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  const database: ScratchDatabase | undefined = serverUrl
    ? await createScratchDatabase(serverUrl)
    : undefined;
  try {
    const service = await startService(database?.url);
    process.env[BASE_URL_ENV] = service.baseURL;
    return async () => {
      await service.stop();
      await database?.drop();
    };
  } catch (error) {
    await database?.drop();
    throw error;
  }
}
