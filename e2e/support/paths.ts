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
