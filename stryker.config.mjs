// Mutation testing of the security-critical modules (TESTING.md): `npm run mutate`.
// Not part of CI: a whole run takes tens of minutes on a 2-core machine.

/** The modules whose tests must kill at least 90 % of the mutants (TESTING.md). */
const SECURITY_MODULES = [
  // Accounts: login, identifiers, lockout, password hashing and the password policy.
  'server/src/accounts/**/*.ts',
  // One-time codes and every recovery flow built on them, with their request limits.
  'server/src/codes/**/*.ts',
  'server/src/recovery/**/*.ts',
  // RedirectUrl rules (the ReturnUrl's local-path rule is in the contract, below), and the way the
  // SPA's links to an application go, which applies them.
  'server/src/redirects/**/*.ts',
  'server/src/http/routes/default-redirect.ts',
  // Which process holds the embedded database's directory (a second opener loses rows).
  'server/src/lock-file.ts',
  // What an error may say in the log (no statement's values), and the answer to an unreadable path.
  'server/src/errors/loggable-error.ts',
  'server/src/http/framework-errors.ts',
  // CSRF and the cookie settings: the anti-forgery cookie, the provider's session and interaction
  // cookies, the upstream-flow cookie (all named and set in cookie-policy.ts).
  'server/src/http/csrf.ts',
  'server/src/cookie-policy.ts',
  // The signatures of the provider's cookies, checked on every protocol request that reads one.
  'server/src/oidc/cookie-signer.ts',
  // Which client registration a protocol request trusts when it is not read from the database.
  'server/src/oidc/client-cache.ts',
  // Which signing keys are published and sign (a revoked one never again), on every instance, and
  // the key commands that change them.
  'server/src/oidc/key-schedule.ts',
  'server/src/oidc/provider-source.ts',
  'server/src/provisioning/key-operations.ts',
  // A sign-in's record (its count cleared, its audit row) written with its interaction's result.
  'server/src/oidc/sign-in-result.ts',
  // What a protocol request may write back once the account's sign-ins were ended meanwhile.
  'server/src/oidc/storage-adapter.ts',
  'server/src/oidc/request-reads.ts',
  // Which browser origins the provider answers, and which client its form pages may post to.
  'server/src/oidc/browser-clients.ts',
  'server/src/oidc/form-action.ts',
  // Per-IP request limit (the recovery limits sit in server/src/recovery/), and which forwarded
  // address, host and scheme count as the client's.
  'server/src/http/rate-limit.ts',
  'server/src/http/trusted-proxies.ts',
  // Which local account an upstream identity signs in to.
  'server/src/federation/link-account.ts',
  'server/src/federation/upstream-address.ts',
  // Whom the organisation's provider vouches for (UserInfo), how recently, and what unbinding unlinks.
  'server/src/federation/upstream-person.ts',
  'server/src/federation/reauthentication.ts',
  'server/src/federation/unlink-domain.ts',
  // Which upstream flow a callback finishes (its state-named cookie), and where a refusal sends the person.
  'server/src/http/routes/federation.ts',
  // Which form POSTs to the provider's pages are passed on as a GET.
  'server/src/http/oidc-form-navigation.ts',
  // Where logout tokens may be posted (public addresses, configured networks).
  'server/src/backchannel/reachable-networks.ts',
  'server/src/backchannel/backchannel-delivery.ts',
  // How long a sign-in session lasts: 24 hours unused, and an absolute end from the sign-in.
  'server/src/oidc/session-lifetime.ts',
  // The SQLSTATE checks that settle races (a unique index) and rerun conflicts.
  'server/src/store/sql-state.ts',
  // The rules both sides apply: SPEC §5's password composition and the strength in context on top,
  // DESIGN §2's local path, and the characters no input may hold.
  'contract/src/rules/password-composition.ts',
  'contract/src/rules/password-strength.ts',
  'contract/src/rules/local-path.ts',
  'contract/src/rules/plain-text.ts',
  // The SPA's query readers and the links built from them; its policy list built on the contract's rules.
  'web/src/routing/query.ts',
  'web/src/routing/link-targets.ts',
  'web/src/screens/reset-password/password-policy.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // The same projects as `npm run test:unit`: one source of truth for what a test is.
  // Forks, as vitest runs the server tests itself: the server projects give their workers node's
  // `--liftoff-only` (vitest.config.ts), which a worker thread refuses.
  vitest: { configFile: 'vitest.config.ts', related: true, pool: 'forks' },
  // Each mutant runs only the tests that reached it in the dry run.
  coverageAnalysis: 'perTest',
  // Each runner is a vitest instance with one worker; two are what a 2-core machine can carry.
  concurrency: 2,
  // Instrumented server code under load is slow: a database test easily takes seconds.
  timeoutMS: 30_000,
  timeoutFactor: 2,
  // The first run of every related test with coverage: about 3 minutes on a quiet 2-core machine,
  // far longer while other work loads it (Stryker's default gives up after 5).
  dryRunTimeoutMinutes: 20,
  // A static mutant (a module-level constant, such as a regular expression) is only active in a fresh
  // import, so it runs every related test rather than those that reached it: in these modules that
  // is most of the server suite, a minute or more per mutant. Left out of the habitual run and
  // its score; `npm run mutate -- --ignoreStatic false` includes them (TESTING.md).
  ignoreStatic: true,
  mutate: [...SECURITY_MODULES, '!**/*.test.ts', '!**/*.test.tsx'],
  // `npm run mutate -- --incremental` reuses this file's results for unchanged code and tests.
  incrementalFile: '.tmp/mutation/stryker-incremental.json',
  ignorePatterns: [
    // Another run's sandbox (`--tempDirName` keeps two runs apart), never copied into this one's.
    '.stryker-tmp*',
    'e2e/artifacts',
    'test-results',
    'playwright-report',
    'data',
    '.tmp/mutation',
    '.tmp/logs',
  ],
  // The server tests rebuild the SPA when a web source is newer than web/dist/index.html. The sandbox
  // copies every file anew, in no set order, so its index (built by scripts/mutate.mjs) is touched
  // last; else each test runner would rebuild it, into the same folder at once.
  buildCommand: 'node scripts/mutate.mjs --mark-spa-fresh',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: '.tmp/mutation/mutation.html' },
  jsonReporter: { fileName: '.tmp/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 80, break: null },
};
