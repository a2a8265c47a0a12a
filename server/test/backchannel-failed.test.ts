import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AdminRequest, runAdminRequest } from '../src/admin/admin-commands.ts';
import { logoutTokensOf } from '../src/backchannel/backchannel-repository.ts';
import { manualClock } from '../src/store/clock.ts';
import { auditEvents, backchannelLogouts, oidcClients } from '../src/store/tables/index.ts';
import { runAdmin } from './admin-harness.ts';
import {
  registerConfidentialClient,
  relyingParty,
  signInThrough,
} from './support/confidential-relying-party.ts';
import { LogoutReceiver } from './support/logout-receiver.ts';
import { useTestService } from './support/test-service.ts';

const receiver = new LogoutReceiver();
const clock = manualClock();
const service = useTestService({
  clock,
  setUp: async ({ db }) => {
    await registerConfidentialClient(db, 'planner', { backchannelLogoutUri: await receiver.listen() });
  },
  tearDown: () => receiver.close(),
});
const app = () => service().app;

// Each test starts with no logout tokens: the counts and lists below are of its own sign-outs only.
beforeEach(async () => {
  await service().db.delete(backchannelLogouts);
});

afterEach(() => {
  receiver.received.length = 0;
  receiver.status = 200;
});

/** `npm run admin -- …` against the service's database and clock, as the admin socket runs it. */
function admin(argv: string[]) {
  return runAdmin(argv, {
    execute: async (_config, request: AdminRequest) => ({
      via: 'service',
      // As the admin socket runs it, naming where the command came from.
      response: await runAdminRequest(
        { db: service().db, clock, origin: { address: 'local socket', userAgent: 'admin-cli (test)' } },
        request,
      ),
    }),
  });
}

/** A person signs in through `planner` and out again; answers their account id and the session's sid. */
async function signInAndOut() {
  const { tokens, browser } = await signInThrough(service(), await relyingParty(app(), 'planner'));
  const end = await browser.get(
    `/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token ?? '' })}`,
  );
  const logoutId = new URL(String(end.headers.location), 'http://localhost:3000').searchParams.get(
    'logoutId',
  );
  expect((await browser.post('/api/Logout', { logoutId })).statusCode).toBe(200);
  const claims = tokens.claims();
  return { sub: String(claims?.sub), sid: String(claims?.sid) };
}

async function setListener(uri: string | null) {
  await service()
    .db.update(oidcClients)
    .set({ backchannelLogoutUri: uri })
    .where(eq(oidcClients.clientId, 'planner'));
}

/** Two sign-outs whose logout tokens the worker gives up on: the client stopped listening meanwhile. */
async function twoGivenUp() {
  const people = [await signInAndOut(), await signInAndOut()];
  const uri = await receiver.listen();
  await setListener(null);
  expect(await app().logouts.runOnce()).toBe(2);
  await setListener(uri);
  return people;
}

describe('backchannel:failed', () => {
  it('lists the logout tokens given up: client, attempts, last error, times, and nothing the token says', async () => {
    const people = await twoGivenUp();
    const run = await admin(['backchannel:failed']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^2 failed logout tokens, most recent failure first/);
    expect(run.stdout).toContain('  client      planner');
    expect(run.stdout).toContain('  attempts    1');
    expect(run.stdout).toContain('not registered for back-channel logout');
    for (const { sub, sid } of people) {
      expect(run.stdout).not.toContain(sub);
      expect(run.stdout).not.toContain(sid);
    }
    const json = await admin(['backchannel:failed', '--json']);
    expect(json.json()).toMatchObject({
      ok: true,
      result: {
        retried: false,
        logouts: [
          { clientId: 'planner', attempts: 1, failedAt: expect.any(String) },
          { clientId: 'planner', attempts: 1, failedAt: expect.any(String) },
        ],
      },
    });
    // Nothing was posted, and listing changes nothing.
    expect(receiver.received).toEqual([]);
    expect(await app().logouts.runOnce()).toBe(0);
  });

  it('retries one by its id, then all the rest, and the worker delivers them', async () => {
    await twoGivenUp();
    const listed = (await admin(['backchannel:failed', '--json'])).json().result as {
      logouts: { id: string }[];
    };
    expect(listed.logouts).toHaveLength(2);
    const [first, second] = listed.logouts;
    if (!first || !second) throw new Error('two failed logout tokens are listed');

    const one = await admin(['backchannel:failed', '--retry', '--id', first.id]);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(
      `made 1 failed logout token due again; the service posts them within 5 seconds:\n  ${first.id}  to planner\n`,
    );
    expect(await app().logouts.runOnce()).toBe(1);
    expect(receiver.tokens()).toHaveLength(1);
    const rows = await logoutTokensOf(service().db, 'planner');
    expect(rows.find((row) => row.id === first.id)).toMatchObject({
      deliveredAt: expect.any(Date),
      failedAt: null,
    });

    const rest = await admin(['backchannel:failed', '--retry']);
    expect(rest.stdout).toContain(`  ${second.id}  to planner`);
    expect(await app().logouts.runOnce()).toBe(1);
    expect(receiver.tokens()).toHaveLength(2);
    expect((await admin(['backchannel:failed'])).stdout).toBe('no failed logout tokens\n');

    const audit = await service().db.select().from(auditEvents).where(eq(auditEvents.event, 'admin'));
    expect(audit).toContainEqual(
      expect.objectContaining({
        ip: 'local socket',
        userAgent: 'admin-cli (test)',
        detail: expect.objectContaining({ command: 'backchannel:failed --retry', logouts: 1 }),
      }),
    );
  });

  it('refuses an id that is no failed logout token, and an id without --retry', async () => {
    const unknown = await admin([
      'backchannel:failed',
      '--retry',
      '--id',
      '00000000-0000-4000-8000-000000000000',
      '--json',
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const malformed = await admin(['backchannel:failed', '--retry', '--id', 'nope']);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain('--id');
    const withoutRetry = await admin(['backchannel:failed', '--id', '00000000-0000-4000-8000-000000000000']);
    expect(withoutRetry.code).not.toBe(0);
    expect(withoutRetry.stderr).toContain('--id');
  });
});
