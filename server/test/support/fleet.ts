import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SmtpSink, startSmtpSink } from '../mail-sink.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { type LoadBalancer, startLoadBalancer } from './load-balancer.ts';
import { buildServerIfStale, freePort, type ServiceProcess, startService } from './service-process.ts';
import { testSigningJwk } from './signing-key.ts';

const LISTENING = /Keycard listening on/;
const START_WITHIN_MS = 60_000;

/** One instance of the fleet: a port of its own and, while it runs, its process. */
export interface Instance {
  /** keycard1 …, as HAProxy's configuration names it. */
  readonly name: string;
  readonly port: number;
  process: ServiceProcess;
}

export interface Fleet {
  readonly publicUrl: string;
  readonly instances: readonly Instance[];
  readonly balancer: LoadBalancer;
  readonly sink: SmtpSink;
  /** The test's own connection to the fleet's database. */
  readonly database: TestDatabase;
  /** Starts the instance's process again and waits until it listens and HAProxy sends to it. */
  restart(instance: Instance): Promise<void>;
  /** Whether HAProxy counts the instance UP (its health check passes). */
  isUp(instance: Instance): Promise<boolean>;
  stop(): Promise<void>;
}

/** The production configuration every instance shares (README, NODE_ENV=production). */
function sharedEnvironment(publicUrl: string, databaseUrl: string, smtpUrl: string, dataDir: string) {
  const jwk = testSigningJwk('fleet-key-1');
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    SMTP_URL: smtpUrl,
    COOKIE_SECRETS: randomBytes(32).toString('base64url'),
    OIDC_JWKS: JSON.stringify({ keys: [jwk] }),
    // HAProxy sets X-Forwarded-For to the client's address (OPERATIONS.md): the per-IP limits count it.
    TRUST_PROXY: 'true',
    DATA_DIR: dataDir,
  };
}

/**
 * Three (or `size`) instances of the compiled service on one fresh, empty PostgreSQL database, one
 * Redis and one SMTP sink, behind Debian's HAProxy with OPERATIONS.md's configuration. The instances
 * are started at the same moment, so they race to migrate the empty database.
 */
export async function startFleet(options: { size: number; env: Record<string, string> }): Promise<Fleet> {
  await buildServerIfStale();
  const dir = await mkdtemp(path.join(tmpdir(), 'keycard-fleet-'));
  const database = await createTestDatabase({ migrated: false });
  const sink = await startSmtpSink();
  const balancerPort = await freePort();
  const publicUrl = `http://127.0.0.1:${balancerPort}`;
  const env = {
    ...sharedEnvironment(publicUrl, String(database.databaseUrl), sink.url, dir),
    ...options.env,
  };
  const instances: Instance[] = [];
  for (let index = 1; index <= options.size; index++) {
    const port = await freePort();
    const service = startService({ ...env, PORT: String(port) });
    instances.push({ name: `keycard${index}`, port, process: service });
  }
  const balancer = await startLoadBalancer({
    dir,
    port: balancerPort,
    servers: instances.map((instance) => instance.port),
    publicHost: '127.0.0.1',
    checkInterval: '200ms',
  });
  const isUp = async (instance: Instance) => (await balancer.stats()).get(instance.name)?.status === 'UP';
  const fleet: Fleet = {
    publicUrl,
    instances,
    balancer,
    sink,
    database,
    isUp,
    async restart(instance) {
      instance.process = startService({ ...env, PORT: String(instance.port) });
      await instance.process.waitFor(LISTENING, START_WITHIN_MS);
      await balancer.waitFor((stats) => stats.get(instance.name)?.status === 'UP', `${instance.name} UP`);
    },
    async stop() {
      for (const { process: service } of instances) {
        if (service.child.exitCode === null && service.child.signalCode === null)
          service.child.kill('SIGKILL');
      }
      await Promise.all(instances.map((instance) => instance.process.exited()));
      await balancer.stop();
      await sink.close();
      await database.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(instances.map((instance) => instance.process.waitFor(LISTENING, START_WITHIN_MS)));
    await balancer.waitFor(
      (stats) => instances.every((instance) => stats.get(instance.name)?.status === 'UP'),
      'every instance UP',
    );
  } catch (error) {
    await fleet.stop();
    throw error;
  }
  return fleet;
}
