import { describe, expect, it, vi } from 'vitest';
import {
  createAccount,
  redeemCode,
  registerTestClient,
  resumeToCode,
  startAuthorization,
  TestBrowser,
} from './support/oidc-flow.ts';
import { useTestService } from './support/test-service.ts';

/**
 * The service's wiring of request-reads.ts (oidc/provider.ts enters it for every protocol request):
 * a token request reads the code's session by uid once, although oidc-provider asks for it twice
 * (its session-binding check, then the ID token's `sid`). request-reads.test.ts covers the memo
 * itself; without the wiring, this test counts two reads.
 */

const service = useTestService({
  setUp: async ({ db }) => {
    await registerTestClient(db);
    await createAccount(db, 'ada@example.com', 'Correct-Horse-42');
  },
});

/** The driver both stores hand statements to: PGlite's `query(text, …)`, the pool's `query(config, …)`. */
type Driver = { query(...args: unknown[]): Promise<unknown> };

function statementText(args: unknown[]): string {
  const [first] = args;
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && first !== null && 'text' in first) return String(first.text);
  return '';
}

/** Runs `work`, counting the statements that read a Session by its uid on the service's database. */
async function sessionReadsByUid(work: () => Promise<unknown>): Promise<number> {
  const driver = (service().db as unknown as { $client: Driver }).$client;
  const query = vi.spyOn(driver, 'query');
  try {
    await work();
    return query.mock.calls.filter(
      (args) =>
        /"oidc_payload"\."uid" = \$\d/.test(statementText(args)) &&
        JSON.stringify(args).includes('"Session"'),
    ).length;
  } finally {
    query.mockRestore();
  }
}

describe('statements of a token request', () => {
  it("read the code's session by uid once, not once per question oidc-provider asks", async () => {
    const browser = new TestBrowser(service().app);
    const auth = await startAuthorization(browser);
    await browser.loadSpa();
    const login = await browser.post('/api/login', {
      Username: 'ada@example.com',
      Password: 'Correct-Horse-42',
      ReturnUrl: auth.returnUrl,
    });
    expect(login.json()).toMatchObject({ isAuthenticated: true });
    const code = await resumeToCode(browser, String(login.json().redirectUrl));

    let tokens: { id_token?: string } = {};
    const reads = await sessionReadsByUid(async () => {
      tokens = await redeemCode(service().app, code, auth.verifier);
    });
    expect(tokens.id_token).toEqual(expect.any(String));
    expect(reads).toBe(1);
  });
});
