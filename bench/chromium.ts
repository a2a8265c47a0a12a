/** Debian's Chromium, as the journeys use it (e2e/playwright.config.ts): nothing can be downloaded here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No sandbox or GPU in containers, and no traffic of the browser's own (the machine's network is closed). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
