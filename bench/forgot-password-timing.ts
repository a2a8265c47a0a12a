/**
 * Wall-clock check of DESIGN §2 Forgot password ("same response, same timing, for every input"):
 * the mean answer time of POST /api/forgotpassword for an existing, an unknown, a federated and a
 * locked address, in-process on an in-memory database. The tests prove the minimum answer time with
 * an injected timer (server/test/pinned-recovery-rules.test.ts); real time is only measured here,
 * where a busy machine cannot fail a build. Run: npx tsx bench/forgot-password-timing.ts
 * Exits non-zero when the means differ by MAX_SPREAD_MS or more.
 */

import { insertAccount, storePassword } from '../server/src/accounts/account-repository.ts';
import { identifierHash } from '../server/src/accounts/identifiers.ts';
import { recordFailure } from '../server/src/accounts/lockout.ts';
import { hashPassword } from '../server/src/accounts/password-hash.ts';
import { loadConfig } from '../server/src/config.ts';
import { buildApp } from '../server/src/http/app.ts';
import { migrateDatabase } from '../server/src/store/migrate.ts';
import { openDatabase } from '../server/src/store/open-database.ts';
import { upstreamDomains, upstreamProviders } from '../server/src/store/tables/index.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const MAX_SPREAD_MS = Number(process.env.BENCH_MAX_SPREAD_MS ?? 100);
const PASSWORD = 'Bench-Password-123!';

const database = await openDatabase({ memory: true });
await migrateDatabase(database);
const { db } = database;
const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', LOCKOUT_THRESHOLD: '3' }), db });
await app.ready();

const [provider] = await db
  .insert(upstreamProviders)
  .values({
    name: 'Bench SSO',
    issuer: 'https://sso.bench.test',
    clientId: 'k',
    clientSecret: 's',
    scopes: [],
  })
  .returning();
await db.insert(upstreamDomains).values({ domain: 'sso.bench.test', providerId: provider?.id ?? '' });

async function account(email: string, password: string | null): Promise<string> {
  const created = await insertAccount(db, { email, displayName: 'Bench User' });
  if (!created) throw new Error(`account ${email} exists`);
  if (password !== null) await storePassword(db, created.id, await hashPassword(password), new Date());
  return email;
}

const kinds: Record<string, (round: number) => Promise<string>> = {
  existing: (round) => account(`existing-${round}@example.com`, PASSWORD),
  unknown: async (round) => `ghost-${round}@example.com`,
  federated: (round) => account(`member-${round}@sso.bench.test`, null),
  locked: async (round) => {
    const email = await account(`locked-${round}@example.com`, PASSWORD);
    for (let n = 0; n < 3; n++)
      await recordFailure(db, identifierHash(email), new Date(), { threshold: 3, minutes: 0 });
    return email;
  },
};

const csrf = await app.inject({ method: 'GET', url: '/api/getcsrftoken' });
const cookie = csrf.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
let ip = 0;

async function timedForgot(email: string): Promise<number> {
  ip += 1;
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/api/forgotpassword',
    payload: { email, returnUrl: null, locationSearch: '' },
    // A client address of its own per request, so the per-IP mail limit never decides the path.
    remoteAddress: `10.9.${ip >> 8}.${ip & 255}`,
    headers: { cookie, 'x-csrf-token': csrf.body, 'sec-fetch-site': 'same-origin' },
  });
  const elapsed = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`forgotpassword answered ${response.statusCode}`);
  return elapsed;
}

const durations: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [kind, address] of Object.entries(kinds))
    durations[kind]?.push(await timedForgot(await address(round)));
}
await app.close();
await database.close();

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const means = Object.entries(durations).map(([kind, values]) => [kind, mean(values)] as const);
for (const [kind, value] of means) {
  const values = durations[kind] ?? [];
  console.log(
    `${kind.padEnd(9)} mean ${value.toFixed(1)} ms, min ${Math.min(...values).toFixed(1)} ms over ${ROUNDS}`,
  );
}
const spread = Math.max(...means.map(([, value]) => value)) - Math.min(...means.map(([, value]) => value));
console.log(`spread of the means: ${spread.toFixed(1)} ms (limit ${MAX_SPREAD_MS} ms)`);
if (spread >= MAX_SPREAD_MS) process.exitCode = 1;
