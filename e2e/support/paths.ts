import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The e2e workspace folder. */
export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The repository root, where `scripts/start.mjs` lives. */
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
/** Screenshots, the service log and the JSON report; git-ignored. */
export const ARTIFACTS_DIR = path.join(E2E_DIR, 'artifacts');
/** Where the JSON reporter writes; scripts/test.mjs reads it for the summary line. */
export const REPORT_FILE = path.join(ARTIFACTS_DIR, 'results.json');
/** Environment variable through which global setup hands the service's origin to the workers. */
export const BASE_URL_ENV = 'KEYCARD_E2E_BASE_URL';
/** Environment variables through which global setup hands the service's database to the workers. */
export const DATA_DIR_ENV = 'KEYCARD_E2E_DATA_DIR';
export const DATABASE_URL_ENV = 'KEYCARD_E2E_DATABASE_URL';
/** Environment variables carrying the demo account the service printed at its first start. */
export const DEMO_EMAIL_ENV = 'KEYCARD_E2E_DEMO_EMAIL';
export const DEMO_PASSWORD_ENV = 'KEYCARD_E2E_DEMO_PASSWORD';
/** Environment variable naming the folder where the SMTP sink of global setup files each message. */
export const MAIL_DIR_ENV = 'KEYCARD_E2E_MAIL_DIR';
/** That folder: one JSON file per message the service sent during the run; emptied at each start. */
export const MAIL_DIR = path.join(ARTIFACTS_DIR, 'mail');
