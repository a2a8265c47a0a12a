import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { isRunning } from '../../src/lock-file.ts';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../../src/store/migrate.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import { administer, databaseUrlOn, dropDatabase, withPostgresClient } from './postgres-admin.ts';

/**
 * Migrates one database per run and hands every test file a copy of it (issue 11): creating and
 * migrating a PGlite database costs 2.5–5 s on the CI machine, loading a dumped one about 0.6 s;
 * on PostgreSQL `create database … template` copies the migrated schema in one statement.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The dumped data directory of a migrated in-memory PGlite. */
    pgliteTemplate: string;
    /** The migrated template database on the DATABASE_URL server (PostgreSQL pass). */
    postgresTemplate: string;
    /**
     * A migrated embedded database as a service leaves it in DATA_DIR/pglite, for the tests that
     * start the service or the CLI as processes (seedEmbeddedDatabase in support/service-process.ts).
     */
    pgliteDataDir: string;
  }
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TEMPLATE_DIR = path.join(REPO_ROOT, '.tmp', 'test-templates');

/** Changes when a migration or the PGlite build changes, so a kept template is never stale. */
function schemaFingerprint(): string {
  const hash = createHash('sha256');
  const pglite = path.join(REPO_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  hash.update(readFileSync(pglite));
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(MIGRATIONS_FOLDER, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(full));
  }
  return hash.digest('hex').slice(0, 16);
}

/** A template of an older schema is left alone this long, in case a run that began before the change still copies it. */
const OLD_TEMPLATE_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes what no run can use any more: the half-written templates of runs that were killed (named
 * `<template>.<pid>.partial`) and the templates of an earlier schema once they are an hour old. Each
 * is about 40 MB, and a migration changes the fingerprint.
 */
async function sweepTemplates(fingerprint: string): Promise<void> {
  if (!existsSync(TEMPLATE_DIR)) return;
  for (const name of readdirSync(TEMPLATE_DIR)) {
    const full = path.join(TEMPLATE_DIR, name);
    const partial = /\.(\d+)\.partial$/.exec(name);
    const stale = partial
      ? !isRunning(Number(partial[1]))
      : !name.includes(fingerprint) && Date.now() - statSync(full).mtimeMs > OLD_TEMPLATE_GRACE_MS;
    if (stale) await rm(full, { recursive: true, force: true });
  }
}

async function pgliteTemplate(fingerprint: string): Promise<string> {
  const file = path.join(TEMPLATE_DIR, `pglite-${fingerprint}.tar`);
  if (existsSync(file)) return file;
  const database = await openDatabase({ memory: true });
  try {
    await migrateDatabase(database);
    if (database.kind !== 'pglite') throw new Error('expected PGlite');
    const dump = await database.client.dumpDataDir('none');
    await mkdir(TEMPLATE_DIR, { recursive: true });
    // Written aside and renamed, so a parallel run never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
  } finally {
    await database.close();
  }
  return file;
}

/**
 * What a service's first start leaves in DATA_DIR/pglite (the data directory PGlite's initdb made,
 * every migration applied), made the same way once and kept like the dump above. A started service
 * spends about 2.3 of its 3.9 s of start-up (on an idle machine) making it.
 */
async function pgliteDataDirTemplate(fingerprint: string): Promise<string> {
  const dir = path.join(TEMPLATE_DIR, `pglite-dir-${fingerprint}`);
  if (existsSync(dir)) return dir;
  const partial = `${dir}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  const database = await openDatabase({ pgliteDir: partial });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  // Made aside and renamed, so a parallel run never copies half a directory.
  await rename(partial, dir).catch(async (error: unknown) => {
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  });
  return dir;
}

async function postgresTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `keycard_template_${randomBytes(6).toString('hex')}`;
  await administer(serverUrl, `create database ${name}`);
  /**
   * The template, and the copies of it the workers still kept for a next file (support/database.ts):
   * each is tried, and the first failure is thrown once all were.
   */
  const drop = async () => {
    const failures: unknown[] = [];
    const copies = await databasesNamed(serverUrl, `${name}_copy_`).catch((error: unknown) => {
      failures.push(error);
      return [];
    });
    for (const database of [...copies, name])
      await dropDatabase(serverUrl, database).catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  };
  try {
    const database = await openDatabase({ databaseUrl: databaseUrlOn(serverUrl, name) });
    try {
      await migrateDatabase(database);
    } finally {
      // A template may have no open connection when it is copied.
      await database.close();
    }
  } catch (error) {
    // The migration's error is the one to see, not a failed clean-up's.
    await drop().catch(() => undefined);
    throw error;
  }
  return { name, drop };
}

/** The server's databases whose names start with `prefix`. */
async function databasesNamed(serverUrl: string, prefix: string): Promise<string[]> {
  return withPostgresClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1) order by datname',
      [prefix],
    );
    return rows.map((row) => row.datname);
  });
}

/**
 * The SPA and static-file tests serve the real build (web/dist): built here when it is missing or
 * older than its sources, as `npm start` and `npm test` do, so a plain `vitest run` never fails for
 * want of it.
 */
async function ensureSpaBuilt(): Promise<void> {
  const freshness = pathToFileURL(path.join(REPO_ROOT, 'scripts', 'spa-freshness.mjs')).href;
  const { spaStaleReason } = (await import(freshness)) as { spaStaleReason(): string | undefined };
  const reason = spaStaleReason();
  if (!reason) return;
  console.log(`[test] building the SPA: ${reason}`);
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0)
    throw new Error('the SPA build failed (see above); the tests that serve it cannot run');
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  await ensureSpaBuilt();
  const fingerprint = schemaFingerprint();
  await sweepTemplates(fingerprint);
  // The embedded template is made on the PostgreSQL pass too: tests of the embedded database use it.
  project.provide('pgliteTemplate', await pgliteTemplate(fingerprint));
  project.provide('pgliteDataDir', await pgliteDataDirTemplate(fingerprint));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return undefined;
  const template = await postgresTemplate(serverUrl);
  project.provide('postgresTemplate', template.name);
  return template.drop;
}
