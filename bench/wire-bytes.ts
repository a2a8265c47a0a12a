/**
 * `npm run bench:wire`: bytes on the wire for a first visit of the sign-in page (empty cache), on a
 * phone and on a desktop, in both themes. Starts the service as `npm start` does (compiled, built
 * files precompressed), opens the page in Chromium and adds up what Chromium received for every
 * request (headers and encoded bodies, backgrounds included) until the network has been idle for
 * 500 ms. Budget: 200 KB per visit (KB = 1000 bytes); exits 1 when a visit is over it. For
 * comparison it also makes each visit asking for no compression and no image format.
 */
import { type BrowserContextOptions, chromium, devices } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
import { startService } from './started-service.ts';

const BUDGET_BYTES = 200_000;
/** The sign-in page as a relying party sends the browser there (SPEC §2). */
const SIGN_IN = '/?ReturnUrl=%2Foidc%2Fauth%3Fclient_id%3Dplanner';

const PHONE = devices['Pixel 7'] ?? {};
const DESKTOP: BrowserContextOptions = { viewport: { width: 1920, height: 1080 } };
/**
 * The last two ask for no content coding and name no image format, so they get what every browser
 * got before the build wrote compressed copies and smaller image forms: the comparison.
 */
const UNNEGOTIATED = { 'accept-encoding': 'identity', accept: '*/*' };
const PROFILES: readonly { readonly name: string; readonly options: BrowserContextOptions }[] = [
  { name: 'phone (Pixel 7)', options: PHONE },
  { name: 'desktop 1920×1080', options: DESKTOP },
  { name: 'phone, unnegotiated', options: { ...PHONE, extraHTTPHeaders: UNNEGOTIATED } },
  { name: 'desktop, unnegotiated', options: { ...DESKTOP, extraHTTPHeaders: UNNEGOTIATED } },
];
/** SPEC §9: dark before 18:00 local time, light from 18:00. */
const THEMES = [
  { name: 'dark', time: '2026-11-25T12:00:00Z' },
  { name: 'light', time: '2026-11-25T19:00:00Z' },
] as const;

type Kind = 'html' | 'js' | 'css' | 'image' | 'api' | 'other';

interface Received {
  url: string;
  kind: Kind;
  encoding: string;
  bytes: number;
}

function kindOf(url: string, mimeType: string): Kind {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/api/')) return 'api';
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.includes('javascript')) return 'js';
  if (mimeType === 'text/css') return 'css';
  if (mimeType === 'text/html') return 'html';
  return 'other';
}

async function visit(base: string, profile: BrowserContextOptions, time: string): Promise<Received[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  try {
    const context = await browser.newContext({ ...profile, timezoneId: 'UTC' });
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date(time));
    const cdp = await context.newCDPSession(page);
    // A new context starts with an empty cache: this is a first visit.
    await cdp.send('Network.enable');
    const responses = new Map<string, Omit<Received, 'bytes'>>();
    const received: Received[] = [];
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      const encoding = String(
        response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? '',
      );
      responses.set(requestId, {
        url: response.url,
        kind: kindOf(response.url, response.mimeType),
        encoding,
      });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const response = responses.get(requestId);
      if (response) received.push({ ...response, bytes: encodedDataLength });
    });
    await page.goto(`${base}${SIGN_IN}`, { waitUntil: 'networkidle' });
    // Every background layer of the page has arrived, not only the one on show.
    await page.waitForFunction('[...document.images].every((image) => image.complete)');
    await page.waitForLoadState('networkidle');
    return received;
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

async function main(): Promise<number> {
  const service = await startService();
  let withinBudget = true;
  try {
    console.log('| visit | total | html | js | css | images | api | other | requests |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    const details: string[] = [];
    for (const profile of PROFILES) {
      for (const theme of THEMES) {
        const received = await visit(service.base, profile.options, theme.time);
        const sum = (kind?: Kind) =>
          received
            .filter((item) => kind === undefined || item.kind === kind)
            .reduce((t, i) => t + i.bytes, 0);
        const total = sum();
        if (!profile.options.extraHTTPHeaders) withinBudget &&= total <= BUDGET_BYTES;
        const columns = (['html', 'js', 'css', 'image', 'api', 'other'] as const).map((kind) =>
          kb(sum(kind)),
        );
        const label = `${profile.name}, ${theme.name}`;
        console.log(`| ${label} | **${kb(total)}** | ${columns.join(' | ')} | ${received.length} |`);
        details.push(`\n${label}:`);
        for (const item of received) {
          const { pathname, search } = new URL(item.url);
          details.push(
            `  ${kb(item.bytes).padStart(9)} ${(item.encoding || '-').padEnd(4)} ${pathname}${search}`,
          );
        }
      }
    }
    console.log(details.join('\n'));
    console.log(`\nbudget ${kb(BUDGET_BYTES)} per visit: ${withinBudget ? 'met' : 'MISSED'}`);
  } finally {
    await service.stop();
  }
  return withinBudget ? 0 : 1;
}

process.exitCode = await main();
