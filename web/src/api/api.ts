import { createApiClient } from './api-client.ts';

/**
 * The identity service base (SPEC §7): `VITE_IDENTITY_BASE` at build time, else the origin that
 * serves the SPA (the service serves both, and `npm run dev` proxies /api to it).
 */
export const IDENTITY_BASE: string = import.meta.env.VITE_IDENTITY_BASE ?? '';

/** The application's one API client. */
export const api = createApiClient({ baseUrl: IDENTITY_BASE });
