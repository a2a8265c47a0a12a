import {
  type AddResourceServerInput,
  type ResourceServersView,
  type ResourceServerView,
  resourceServersView,
  resourceServerView,
} from '../provisioning/resource-schemas.ts';
import type { AdminRequest } from './admin-commands.ts';
import type { FlagSpec, ParsedFlags } from './cli-args.ts';
import { cliCommand, type ResetSwitch, resetFlags, resetsGiven } from './cli-command.ts';

function describe(server: ResourceServerView): string {
  return [
    server.identifier + (server.origin === 'environment' ? '  (RESOURCE_SERVERS)' : ''),
    `  scopes               ${server.scopes.join(' ')}`,
    `  token lifetime       ${server.accessTokenTtl} s`,
    `  signing algorithm    ${server.signingAlg ?? "the provider's default"}`,
    `  clients              ${server.clientIds?.join(' ') ?? 'every registered client'}`,
    `  introspects as       ${server.introspectionClientId ?? '(none)'}`,
  ].join('\n');
}

function listing(view: ResourceServersView): string {
  if (view.resourceServers.length === 0) return 'no resource servers';
  return view.resourceServers.map(describe).join('\n\n');
}

/** `--ttl` is a number of seconds; what is not one goes on as given, so the input check names the flag. */
function ttlOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  return (text.trim() === '' || Number.isNaN(seconds) ? text : seconds) as number;
}

const IDENTIFIER: FlagSpec = {
  name: 'identifier',
  kind: 'value',
  required: true,
  placeholder: 'URI',
  description: 'the resource clients ask for (RFC 8707), e.g. https://api.planner.example/',
};

/** The flags add and update share; `required` marks those add cannot do without. */
function settingFlags(required: boolean): FlagSpec[] {
  return [
    {
      name: 'scope',
      kind: 'list',
      required,
      placeholder: 'SCOPE',
      description: 'a scope the API accepts (repeatable; replaces the list)',
    },
    {
      name: 'ttl',
      kind: 'value',
      placeholder: 'SECONDS',
      description: 'access-token lifetime, 60–86400 (default 600)',
    },
    {
      name: 'alg',
      kind: 'value',
      placeholder: 'ALG',
      description: "JWT signing algorithm (one the provider's keys make)",
    },
    {
      name: 'client',
      kind: 'list',
      placeholder: 'ID',
      description: 'a client that may ask for it (repeatable; default every client)',
    },
    {
      name: 'introspection-client',
      kind: 'value',
      placeholder: 'ID',
      description: 'the confidential client the API introspects opaque tokens as',
    },
  ];
}

const FIELD_FLAGS = {
  identifier: '--identifier',
  scopes: '--scope',
  accessTokenTtl: '--ttl',
  signingAlg: '--alg',
  clientIds: '--client',
  introspectionClientId: '--introspection-client',
};

/** The settings given on the command line, and only those. */
function settingsOf(flags: ParsedFlags) {
  const scopes = flags.list('scope');
  const clients = flags.list('client');
  const ttl = ttlOf(flags.value('ttl'));
  const alg = flags.value('alg');
  const introspection = flags.value('introspection-client');
  return {
    ...(scopes.length > 0 ? { scopes } : {}),
    ...(ttl === undefined ? {} : { accessTokenTtl: ttl }),
    ...(alg === undefined ? {} : { signingAlg: alg as AddResourceServerInput['signingAlg'] }),
    ...(clients.length > 0 ? { clientIds: clients } : {}),
    ...(introspection === undefined ? {} : { introspectionClientId: introspection }),
  };
}

/** resource:update's switches that return a field to its default (sent as null). */
const RESETS: readonly ResetSwitch[] = [
  {
    reset: 'any-client',
    field: 'clientIds',
    instead: 'client',
    description: 'every registered client may ask for it',
  },
  {
    reset: 'default-alg',
    field: 'signingAlg',
    instead: 'alg',
    description: "sign with the provider's default algorithm",
  },
  {
    reset: 'no-introspection-client',
    field: 'introspectionClientId',
    instead: 'introspection-client',
    description: 'no client introspects for it',
  },
];

function identifierOf(flags: ParsedFlags): string {
  return flags.value('identifier') ?? '';
}

/** resource:add, resource:list, resource:update and resource:remove (RFC 8707 resource servers). */
export const RESOURCE_COMMANDS = [
  cliCommand({
    name: 'resource:add',
    summary: 'register a resource server (an API clients may ask access tokens for)',
    details:
      'Registers an API that accepts access tokens of this provider. A client asks for one with the\n' +
      'resource parameter (RFC 8707) and the API scopes it wants; the token carries those the API\n' +
      'accepts, has the identifier as its audience and lives --ttl seconds. It is an RFC 9068 JWT the\n' +
      "API verifies with /oidc/jwks, or opaque if the client's access-token format is opaque: then the\n" +
      'API introspects it (RFC 7662) authenticating as its --introspection-client. A registration takes\n' +
      'the place of a RESOURCE_SERVERS entry of the same identifier, at once and without a restart.',
    flags: [IDENTIFIER, ...settingFlags(true)],
    fieldFlags: FIELD_FLAGS,
    toRequest: (flags): AdminRequest => ({
      command: 'resource:add',
      input: { identifier: identifierOf(flags), scopes: [], ...settingsOf(flags) },
    }),
    result: resourceServerView,
    format: (server) => `registered resource server ${describe(server)}`,
  }),
  cliCommand({
    name: 'resource:list',
    summary: 'list the resource servers, registered and from RESOURCE_SERVERS',
    details:
      'Lists every resource server clients may ask tokens for: the registered ones, then those of\n' +
      'RESOURCE_SERVERS that no registration replaces (changed only in the environment).',
    flags: [],
    fieldFlags: {},
    toRequest: () => ({ command: 'resource:list', input: {} }),
    result: resourceServersView,
    format: listing,
  }),
  cliCommand({
    name: 'resource:update',
    summary: 'change a registered resource server',
    details:
      'Changes only what is given; lists replace the stored ones. --any-client lets every client ask\n' +
      "for it again, --default-alg signs its tokens with the provider's default algorithm, and\n" +
      '--no-introspection-client stops its introspection. Takes effect with the next token request.',
    flags: [IDENTIFIER, ...settingFlags(false), ...resetFlags(RESETS)],
    fieldFlags: FIELD_FLAGS,
    toRequest: (flags): AdminRequest => ({
      command: 'resource:update',
      input: {
        identifier: identifierOf(flags),
        ...settingsOf(flags),
        ...resetsGiven(flags, RESETS),
      },
    }),
    result: resourceServerView,
    format: (server) => `changed resource server ${describe(server)}`,
  }),
  cliCommand({
    name: 'resource:remove',
    summary: 'remove a registered resource server',
    details:
      'Clients can no longer ask for it (invalid_target) unless RESOURCE_SERVERS names it. Tokens\n' +
      'already issued for it live out their lifetime.',
    flags: [IDENTIFIER],
    fieldFlags: { identifier: '--identifier' },
    toRequest: (flags) => ({ command: 'resource:remove', input: { identifier: identifierOf(flags) } }),
    result: resourceServerView,
    format: (server) => `removed resource server ${server.identifier}`,
  }),
];
