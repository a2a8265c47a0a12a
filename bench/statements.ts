/**
 * `npm run bench:statements`: the SQL statements one full sign-in code flow sends to PostgreSQL, step
 * by step, and what `/api/login` sends for each outcome (BENCHMARKS.md). The service is built in this
 * process on a fresh database of DATABASE_URL's server, and every statement is counted where pg's
 * clients send it (`Client.prototype.query`), transaction control included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../server/src/config.ts';
import { ensureDemoAccount } from '../server/src/demo/demo-setup.ts';
import { buildApp } from '../server/src/http/app.ts';
import { ClientCache } from '../server/src/oidc/client-cache.ts';
import { followClientChangesIn } from '../server/src/oidc/client-changes.ts';
import { migrateDatabase } from '../server/src/store/migrate.ts';
import { openDatabase } from '../server/src/store/open-database.ts';
import { type Answer, authorize, Browser, finishFlow } from './browser.ts';
import { freshDatabase } from './service.ts';
import { freePort } from './started-service.ts';

/** How much of a statement's text is printed. */
const SHOWN_CHARS = 110;
/** A statement sent this long after an answer still counts for the request that caused it. */
const SETTLE_MS = 30;

interface Sent {
  /** The request being answered when the statement was sent. */
  request: string;
  text: string;
  /** The name of a prepared (named) statement, which the server parses once per connection. */
  name: string | undefined;
}

const sent: Sent[] = [];
let currentRequest = '(start-up)';

// Counts what really goes to the server: every pooled and transaction client sends through here.
const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [first] = args;
  const config = typeof first === 'string' ? { text: first } : (first as { text?: string; name?: string });
  sent.push({ request: currentRequest, text: config.text ?? '', name: config.name });
  return send.apply(this, args);
} as typeof pg.Client.prototype.query;

function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS - 1)}…` : line;
}

/** Waits until the pool has had nothing to do for SETTLE_MS, so trailing statements are counted. */
async function settled(pool: pg.Pool): Promise<void> {
  let quietSince = performance.now();
  while (performance.now() - quietSince < SETTLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (pool.totalCount !== pool.idleCount || pool.waitingCount > 0) quietSince = performance.now();
  }
}

/** A browser that names each request it sends, so the statements sent while it is answered are its. */
class CountingBrowser extends Browser {
  constructor(
    base: string,
    private readonly pool: pg.Pool,
    private readonly step: () => string,
  ) {
    super(base);
  }

  private async counted(label: string, request: () => Promise<Answer>): Promise<Answer> {
    await settled(this.pool);
    currentRequest = `${this.step()}\u0000${label}`;
    const answer = await request();
    await settled(this.pool);
    currentRequest = '(between requests)';
    return answer;
  }

  override get(url: string): Promise<Answer> {
    return this.counted(`GET ${url.split('?')[0]}`, () => super.get(url));
  }

  override post(route: string, body: unknown): Promise<Answer> {
    return this.counted(`POST ${route}`, () => super.post(route, body));
  }

  override postForm(route: string, form: URLSearchParams): Promise<Answer> {
    return this.counted(`POST ${route}`, () => super.postForm(route, form));
  }
}

function statementsOf(step: string): Sent[] {
  return sent.filter((statement) => statement.request.startsWith(`${step}\u0000`));
}

function printStep(step: string): { count: number; prepared: number } {
  const statements = statementsOf(step);
  const prepared = statements.filter((statement) => statement.name !== undefined).length;
  console.log(`\n${step}: ${statements.length} statements, ${prepared} of them prepared`);
  let request = '';
  for (const statement of statements) {
    const label = statement.request.split('\u0000')[1] ?? '';
    if (label !== request) {
      request = label;
      console.log(`  ${label}`);
    }
    console.log(
      `    ${statement.name === undefined ? '' : `[${statement.name}] `}${shortened(statement.text)}`,
    );
  }
  return { count: statements.length, prepared };
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL must name a PostgreSQL server');
  const fresh = await freshDatabase(serverUrl, 'keycard_statements');
  const url = new URL(fresh.url);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keycard-statements-'));
  const port = await freePort();
  const config = loadConfig({ PORT: String(port), DATA_DIR: dataDir, DEMO: 'true', DATABASE_URL: url.href });
  const database = await openDatabase({ databaseUrl: url.href });
  try {
    if (database.kind !== 'postgres') throw new Error('expected a PostgreSQL pool');
    const pool = database.client;
    await migrateDatabase(database);
    // As main.ts runs it on PostgreSQL: clients cached while their changes are heard.
    const clientCache = new ClientCache();
    const app = await buildApp({ config, db: database.db, clientCache });
    const clientChanges = await followClientChangesIn(database, clientCache, app.log);
    while (!clientCache.enabled) await new Promise((resolve) => setTimeout(resolve, 10));
    const demo = await ensureDemoAccount(database.db);
    if (!demo) throw new Error('the fresh database had a demo account already');
    await app.listen({ port, host: '127.0.0.1' });
    const base = `http://localhost:${port}`;
    try {
      let step = '';
      const browserFor = () => new CountingBrowser(base, pool, () => step);
      // One flow first, uncounted: the first requests also fill caches (keys, cookie secret).
      for (const counted of [false, true]) {
        const prefix = counted ? '' : 'warm-up ';
        const browser = browserFor();
        step = `${prefix}csrf token`;
        await browser.loadSpa();
        step = `${prefix}authorize`;
        const flow = await authorize(browser);
        step = `${prefix}CheckUsername`;
        await browser.post('/api/CheckUsername', { Username: demo.email, ReturnUrl: flow.returnUrl });
        step = `${prefix}login`;
        const login = await browser.post('/api/login', {
          Username: demo.email,
          Password: demo.password,
          ReturnUrl: flow.returnUrl,
        });
        if (!login.text.includes('"isAuthenticated":true')) throw new Error(`login answered ${login.text}`);
        // finishFlow follows the resume path, then redeems the code: its last request is the token's.
        step = `${prefix}resume`;
        const resume = finishFlow(browser, flow);
        await resume;
      }
      // The token request was sent under the resume step: move it to its own.
      for (const statement of sent) {
        if (statement.request === 'resume\u0000POST /oidc/token')
          statement.request = 'token\u0000POST /oidc/token';
      }
      console.log(
        'Statements of one full code flow on PostgreSQL (csrf token is the SPA start, not counted)',
      );
      const steps = ['authorize', 'CheckUsername', 'login', 'resume', 'token'];
      printStep('csrf token');
      let total = 0;
      let prepared = 0;
      for (const flowStep of steps) {
        const printed = printStep(flowStep);
        total += printed.count;
        prepared += printed.prepared;
      }
      console.log(`\nfull flow (authorize → token): ${total} statements, ${prepared} of them prepared`);

      const outcomes = [
        { outcome: 'success', username: demo.email, password: demo.password },
        { outcome: 'wrong password', username: demo.email, password: 'Wrong-Password-123' },
        { outcome: 'unknown user', username: 'nobody@bench.example', password: 'Wrong-Password-123' },
      ];
      const counts: string[] = [];
      for (const { outcome, username, password } of outcomes) {
        const browser = browserFor();
        step = 'setup';
        await browser.loadSpa();
        const flow = await authorize(browser);
        step = `login, ${outcome}`;
        await browser.post('/api/login', {
          Username: username,
          Password: password,
          ReturnUrl: flow.returnUrl,
        });
        printStep(step);
        counts.push(`${outcome} ${statementsOf(step).length}`);
      }
      console.log(`\n/api/login statements by outcome: ${counts.join(', ')}`);
    } finally {
      await clientChanges?.close();
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    await fresh.drop();
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
