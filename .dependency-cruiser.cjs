// Who may import what (ARCHITECTURE.md names the same layers). `npm run lint` runs it.
// A layer may import the layers below it, never one above; tests may import what they test.

/** Server layers, top to bottom. */
const SERVER = {
  entry: '^server/src/(main\\.ts|admin/cli\\.ts)$',
  adapters: '^server/src/(http|admin|demo|mail/dev-mailbox)/',
  provisioning: '^server/src/provisioning/',
  domain:
    '^server/src/((accounts|backchannel|codes|recovery|federation|oidc|audit|redirects)/|mail/(?!dev-mailbox/))',
  infrastructure:
    '^server/src/((store|housekeeping|i18n|site|errors|metrics)/|(config|config-fields|cookie-policy|lock-file|log-output|shutdown|thread-priority)\\.ts$)',
  /** Where queries may be written: the store itself and each domain's repository module. */
  queries: '^server/src/store/|^server/src/[^/]+/[^/]+-repository\\.ts$',
  /** What a query is written with: the table definitions and raw-result helper of the store. */
  tables: '^server/src/store/(tables/|schema\\.ts$|rows\\.ts$)',
};

/** Web layers, top to bottom. */
const WEB = {
  entry: '^web/src/main\\.tsx$',
  app: '^web/src/app/',
  screens: '^web/src/screens/',
  shell: '^web/src/shell/',
  ui: '^web/src/ui/',
  base: '^web/src/(routing|api|text)/',
};

/** Tests, and the test kits beside them, may reach into whatever they test. */
const TESTS = '(\\.test\\.tsx?|-test-kit\\.tsx?)$|^web/src/test-support/|^server/test/';

/** A rule forbidding `lower` layers to import `upper` ones. */
function upward(name, comment, lower, upper) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: lower, pathNot: TESTS },
    to: { path: upper },
  };
}

const either = (...paths) => paths.map((path) => `(${path})`).join('|');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No two modules import each other, directly or through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'No two folders import each other, directly or through others.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(server|web|contract)/src/' },
      to: { circular: true },
    },

    // server
    upward(
      'server-entry-is-top',
      'main.ts and the admin CLI start processes; nothing imports them.',
      either(SERVER.adapters, SERVER.provisioning, SERVER.domain, SERVER.infrastructure),
      SERVER.entry,
    ),
    upward(
      'server-adapters-are-above-provisioning',
      'HTTP routes, the admin CLI and socket, the demo and the dev mailbox call into the layers below.',
      either(SERVER.provisioning, SERVER.domain, SERVER.infrastructure),
      SERVER.adapters,
    ),
    upward(
      'server-provisioning-is-above-domain',
      'Admin operations (accounts, clients, providers, mail) use the domain; the domain never uses them.',
      either(SERVER.domain, SERVER.infrastructure),
      SERVER.provisioning,
    ),
    upward(
      'server-domain-is-above-infrastructure',
      'Store, clock, config, housekeeping, texts, site and metrics know nothing of the domain.',
      SERVER.infrastructure,
      SERVER.domain,
    ),
    {
      name: 'server-adapters-apart',
      comment: 'The HTTP app and the admin CLI/socket are two separate ways in; neither imports the other.',
      severity: 'error',
      from: { path: '^server/src/(http|admin)/', pathNot: TESTS },
      to: { path: '^server/src/(http|admin)/', pathNot: '^server/src/$1/' },
    },
    {
      name: 'server-queries-in-repositories',
      comment:
        "A query lives in its domain's repository module (`*-repository.ts`, STYLE §6): no other file " +
        'imports the query builder (and with it the `sql` tag), the tables or a database driver.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: either(SERVER.queries, TESTS) },
      to: { path: either('(^|/)node_modules/(drizzle-orm|pg|@electric-sql/pglite)/', SERVER.tables) },
    },
    {
      name: 'server-not-web',
      comment: 'The server and the SPA share only the contract.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^web/' },
    },

    // web
    upward(
      'web-entry-is-top',
      'main.tsx mounts the app; nothing imports it.',
      either(WEB.app, WEB.screens, WEB.shell, WEB.ui, WEB.base),
      WEB.entry,
    ),
    upward(
      'web-app-is-above-screens',
      'app/ maps routes to screens; screens and what they use never import it.',
      either(WEB.screens, WEB.shell, WEB.ui, WEB.base),
      WEB.app,
    ),
    upward(
      'web-screens-are-above-shell',
      'Screens use the shell, ui and base folders; those never import a screen.',
      either(WEB.shell, WEB.ui, WEB.base),
      WEB.screens,
    ),
    upward(
      'web-shell-is-above-ui',
      'The page frame uses the small ui parts, not the reverse.',
      WEB.ui,
      WEB.shell,
    ),
    upward(
      'web-ui-is-above-base',
      'Routing, the API client and the text provider know nothing of what is drawn.',
      WEB.base,
      either(WEB.shell, WEB.ui),
    ),
    {
      name: 'web-screens-apart',
      comment: 'Screens do not import each other (STYLE §3); what two share moves to shell/ or ui/.',
      severity: 'error',
      from: { path: '^web/src/screens/([^/]+)/' },
      to: { path: '^web/src/screens/', pathNot: '^web/src/screens/$1/' },
    },
    {
      name: 'web-test-support-only-in-tests',
      comment: 'Test helpers never ship in the SPA.',
      severity: 'error',
      from: { path: '^web/src/', pathNot: TESTS },
      to: { path: '^web/src/test-support/' },
    },
    {
      name: 'web-not-server',
      comment: 'The SPA and the server share only the contract.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^server/' },
    },

    // contract
    {
      name: 'contract-imports-only-zod',
      comment: 'The contract is shared by both sides, so it imports nothing of them and no library but zod.',
      severity: 'error',
      from: { path: '^contract/src/' },
      to: { pathNot: '^(contract/src/|node_modules/zod/)', dependencyTypesNot: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests may import what they test; they would make every folder they test part of one cycle.
    exclude: { path: '(\\.test\\.tsx?|-test-kit\\.tsx?)$|^server/test/' },
    // Type-only imports count too: a cycle of types is still two files that cannot be read apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
