/**
 * The floor: the least a provider needs to do for the benchmark's full sign-in flow, built on the same
 * oidc-provider version, the same argon2id parameters (and the same dummy verify for an unknown
 * address), the same first-party grant logic and the same kind of store as the service, and nothing
 * else: no framework, no CSRF, no rate limit, no audit, no lockout, no logs. `npm run bench` runs it
 * beside the service and reports the service's figures as ratios of the floor's.
 *
 * Env: PORT; DATABASE_URL (a PostgreSQL database) or DATA_DIR (PGlite there). It prints
 * `floor listening on <url>` and `floor account: <email> / password <password>` once ready.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';
import { hashPassword, verifyPassword } from '../../server/src/accounts/password-hash.ts';
import { newSigningKey } from '../../server/src/oidc/keys.ts';
import { firstPartyGrantLoader } from '../../server/src/oidc/provider.ts';
import { type FloorStore, openFloorStore } from './floor-store.ts';

const MOUNT = '/oidc';
const CLIENT_ID = 'keycard-demo';
const EMAIL = 'demo@keycard.example';

interface AccountRow {
  sub: string;
  email: string;
  hash: string;
  name: string;
}

/** oidc-provider's storage in the one table: expiry and consumption checked by the database. */
function floorAdapter(store: FloorStore): new (model: string) => Adapter {
  return class FloorAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await store.query(
        `insert into floor_payload (model, id, payload, uid, grant_id, expires_at)
         values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
         on conflict (model, id) do update set payload = excluded.payload, uid = excluded.uid,
           grant_id = excluded.grant_id, expires_at = excluded.expires_at`,
        [this.model, id, payload, payload.uid ?? null, payload.grantId ?? null, expiresIn],
      );
    }

    private async findWhere(column: 'id' | 'uid', value: string): Promise<AdapterPayload | undefined> {
      const [row] = await store.query<{ payload: AdapterPayload; consumed: number | null }>(
        `select payload, extract(epoch from consumed_at)::int as consumed from floor_payload
         where model = $1 and ${column} = $2 and (expires_at is null or expires_at > now())`,
        [this.model, value],
      );
      if (!row) return undefined;
      return row.consumed === null ? row.payload : { ...row.payload, consumed: row.consumed };
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('id', id);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid', uid);
    }

    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await store.query('update floor_payload set consumed_at = now() where model = $1 and id = $2', [
        this.model,
        id,
      ]);
    }

    async destroy(id: string): Promise<void> {
      await store.query('delete from floor_payload where model = $1 and id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.query('delete from floor_payload where grant_id = $1', [grantId]);
    }
  };
}

async function accountBy(store: FloorStore, column: 'id' | 'uid', value: string) {
  const [row] = await store.query<{ payload: AccountRow }>(
    `select payload from floor_payload where model = 'Account' and ${column} = $1`,
    [value],
  );
  return row?.payload;
}

function readJson(request: http.IncomingMessage): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')));
    request.on('error', reject);
  });
}

function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 0);
  const databaseUrl = process.env.DATABASE_URL;
  const store = await openFloorStore(
    databaseUrl ? { databaseUrl } : { dataDir: process.env.DATA_DIR ?? 'floor-data' },
  );
  const base = `http://localhost:${port}`;
  const password = `Floor-${randomBytes(9).toString('base64url')}-7a`;
  const account: AccountRow = {
    sub: randomUUID(),
    email: EMAIL,
    hash: await hashPassword(password),
    name: 'Dana',
  };
  await store.query(
    `insert into floor_payload (model, id, payload, uid) values ('Account', $1, $2, $3)
     on conflict (model, id) do update set payload = excluded.payload, uid = excluded.uid`,
    [EMAIL, account, account.sub],
  );
  await store.query(
    `insert into floor_payload (model, id, payload) values ('Client', $1, $2)
     on conflict (model, id) do update set payload = excluded.payload`,
    [
      CLIENT_ID,
      {
        client_id: CLIENT_ID,
        redirect_uris: [`${base}/demo/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        scope: 'openid email profile',
        token_endpoint_auth_method: 'none',
      },
    ],
  );

  const provider = new Provider(`${base}${MOUNT}`, {
    adapter: floorAdapter(store),
    jwks: { keys: [newSigningKey('RSA')] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    async findAccount(_ctx, sub) {
      const found = await accountBy(store, 'uid', sub);
      if (!found) return undefined;
      return {
        accountId: found.sub,
        claims: async () => ({ sub: found.sub, email: found.email, email_verified: true, name: found.name }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    interactions: {
      url: (_ctx, interaction) => `/?ReturnUrl=${encodeURIComponent(`${MOUNT}/auth/${interaction.uid}`)}`,
    },
    // The service's own: made or widened without asking; the floor has no resource servers.
    loadExistingGrant: firstPartyGrantLoader(async () => {}),
    pkce: { required: () => true },
    responseTypes: ['code'],
    features: { devInteractions: { enabled: false } },
  });
  const callback = provider.callback();

  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (url.startsWith(MOUNT)) {
      const mounted = request as http.IncomingMessage & { originalUrl?: string };
      mounted.originalUrl = url;
      mounted.url = url.slice(MOUNT.length) || '/';
      void callback(mounted, response);
      return;
    }
    void answer(url, request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) json(response, 500, { error: 'server_error' });
    });
  });

  async function answer(url: string, request: http.IncomingMessage, response: http.ServerResponse) {
    if (url === '/api/getcsrftoken') return void response.end('floor');
    if (request.method !== 'POST') return json(response, 404, {});
    const body = await readJson(request);
    if (url === '/api/CheckUsername') {
      const found = await accountBy(store, 'id', body.Username ?? '');
      return json(response, 200, { exists: found !== undefined });
    }
    if (url === '/api/login') {
      const interaction = await provider.interactionDetails(request, response);
      const found = await accountBy(store, 'id', body.Username ?? '');
      if (!(await verifyPassword(found?.hash ?? null, body.Password ?? ''))) {
        return json(response, 200, { verificationType: 0 });
      }
      interaction.result = { login: { accountId: found?.sub ?? '' } };
      await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
      return json(response, 200, { isAuthenticated: true });
    }
    return json(response, 404, {});
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  console.log(`floor account: ${EMAIL} / password ${password}`);
  console.log(`floor listening on ${base}`);
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void store.close().then(() => process.exit(0));
  });
}

await main();
