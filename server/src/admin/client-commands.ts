import {
  type AddClientInput,
  type ClientView,
  clientsView,
  clientView,
} from '../provisioning/client-schemas.ts';
import type { FlagSpec, ParsedFlags } from './cli-args.ts';
import { cliCommand, type ResetSwitch, resetFlags, resetsGiven } from './cli-command.ts';

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** `--jwks` is JSON; what does not parse goes on as given, so the input check names the flag. */
function jwksOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The back-channel logout flags, given only when set. */
function backchannelFlags(flags: ParsedFlags) {
  const uri = flags.value('backchannel-logout-uri');
  return {
    ...(uri === undefined ? {} : { backchannelLogoutUri: uri }),
    ...(flags.has('backchannel-logout-session-required') ? { backchannelLogoutSessionRequired: true } : {}),
  };
}

const pkceOf = (client: ClientView) => (client.requirePkce ? ', PKCE' : '');

/** One line about a client; `done` is what just happened to it (none for client:show). */
function describeClient(client: ClientView, done?: 'registered' | 'changed'): string {
  const lead = done ? `${done} ` : '';
  if (client.admin) {
    return `${lead}admin client ${client.clientId} ("${client.productName}"): client credentials, scope keycard:admin`;
  }
  return (
    `${lead}${client.kind} client ${client.clientId} ("${client.productName}"${pkceOf(client)})` +
    ` with ${count(client.redirectUris.length, 'redirect URI')}` +
    ` and ${count(client.postLogoutRedirectUris.length, 'post-logout URI')}` +
    `; grant types ${client.grantTypes.join(' ')}; scopes ${client.scopes.join(' ')}` +
    `; token endpoint authentication ${client.tokenEndpointAuthMethod}` +
    (client.idTokenSignedResponseAlg ? `; ID tokens ${client.idTokenSignedResponseAlg}` : '') +
    (client.backchannelLogoutUri ? `; back-channel logout to ${client.backchannelLogoutUri}` : '') +
    (client.accessTokenFormat === 'opaque' ? '; opaque access tokens for resource servers' : '')
  );
}

const ID_FLAG: FlagSpec = {
  name: 'id',
  kind: 'value',
  required: true,
  placeholder: 'ID',
  description: 'client_id: 3–64 of A–Z a–z 0–9 . _ -',
};

/** The registration's flags, shared by client:add and client:update; `adding` marks what only add says. */
function registrationFlags(adding: boolean): FlagSpec[] {
  const replaces = adding ? '' : '; replaces the list';
  return [
    {
      name: 'name',
      kind: 'value',
      required: adding,
      placeholder: '"Product name"',
      description: 'product name shown on the sign-in page',
    },
    {
      name: 'redirect-uri',
      kind: 'list',
      placeholder: 'URI',
      description: `where sign-in returns to (repeatable${adding ? '; required with authorization_code' : replaces})`,
    },
    {
      name: 'post-logout-uri',
      kind: 'list',
      placeholder: 'URI',
      description: `where sign-out may return to (repeatable${replaces})`,
    },
    {
      name: 'secret-stdin',
      kind: 'switch',
      description: adding
        ? 'read the client secret from standard input'
        : 'read a new client secret from standard input (the old one stops working)',
    },
    {
      name: 'grant-type',
      kind: 'list',
      placeholder: 'GRANT',
      description: `authorization_code, refresh_token or client_credentials (repeatable${replaces})`,
    },
    {
      name: 'scope',
      kind: 'list',
      placeholder: 'SCOPE',
      description: `openid, email, profile or offline_access (repeatable${replaces})`,
    },
    {
      name: 'auth-method',
      kind: 'value',
      placeholder: 'METHOD',
      description: 'client_secret_basic, client_secret_post, client_secret_jwt, private_key_jwt or none',
    },
    { name: 'jwks', kind: 'value', placeholder: 'JSON', description: 'public keys for private_key_jwt' },
    {
      name: 'jwks-uri',
      kind: 'value',
      placeholder: 'URI',
      description: 'where the client publishes its keys',
    },
    {
      name: 'require-pkce',
      kind: 'switch',
      description: 'confidential client: refuse sign-ins without PKCE',
    },
    {
      name: 'id-token-alg',
      kind: 'value',
      placeholder: 'ALG',
      description: "ID-token signing algorithm (one the provider's keys make)",
    },
    {
      name: 'backchannel-logout-uri',
      kind: 'value',
      placeholder: 'URI',
      description: 'where logout tokens are posted when a session ends (Back-Channel Logout 1.0)',
    },
    {
      name: 'backchannel-logout-session-required',
      kind: 'switch',
      description: 'the client needs sid in logout tokens',
    },
    {
      name: 'access-token-format',
      kind: 'value',
      placeholder: 'FORMAT',
      description: 'jwt (default) or opaque: access tokens for a registered resource server',
    },
  ];
}

const FIELD_FLAGS = {
  id: '--id',
  name: '--name',
  redirectUris: '--redirect-uri',
  postLogoutUris: '--post-logout-uri',
  secret: '--secret-stdin',
  grantTypes: '--grant-type',
  scopes: '--scope',
  tokenEndpointAuthMethod: '--auth-method',
  jwks: '--jwks',
  jwksUri: '--jwks-uri',
  requirePkce: '--require-pkce',
  idTokenSignedResponseAlg: '--id-token-alg',
  accessTokenFormat: '--access-token-format',
  backchannelLogoutUri: '--backchannel-logout-uri',
  backchannelLogoutSessionRequired: '--backchannel-logout-session-required',
};

/** A list flag's values, undefined when it was not given (an update then keeps the stored list). */
function listGiven(flags: ParsedFlags, name: string): string[] | undefined {
  const values = flags.list(name);
  return values.length > 0 ? values : undefined;
}

/** The registration's fields the flags give; a field whose flag is absent is left out. */
function registrationOf(flags: ParsedFlags) {
  return {
    grantTypes: listGiven(flags, 'grant-type') as AddClientInput['grantTypes'],
    scopes: listGiven(flags, 'scope') as AddClientInput['scopes'],
    tokenEndpointAuthMethod: flags.value('auth-method') as AddClientInput['tokenEndpointAuthMethod'],
    jwks: jwksOf(flags.value('jwks')) as AddClientInput['jwks'],
    jwksUri: flags.value('jwks-uri'),
    ...(flags.has('require-pkce') ? { requirePkce: true } : {}),
    idTokenSignedResponseAlg: flags.value('id-token-alg') as AddClientInput['idTokenSignedResponseAlg'],
    accessTokenFormat: flags.value('access-token-format') as AddClientInput['accessTokenFormat'],
    ...backchannelFlags(flags),
  };
}

/**
 * client:update's switches that take a setting back (to none, or to its default), each with the
 * value it sends and the flag that sets the field instead.
 */
const RESETS: readonly ResetSwitch[] = [
  {
    reset: 'no-secret',
    field: 'secret',
    value: null,
    instead: 'secret-stdin',
    description: 'no secret any more: a public client (auth method none)',
  },
  {
    reset: 'no-post-logout-uri',
    field: 'postLogoutUris',
    value: [],
    instead: 'post-logout-uri',
    description: 'sign-out returns to none of its URIs',
  },
  {
    reset: 'no-jwks',
    field: 'jwks',
    value: null,
    instead: 'jwks',
    description: 'drop the stored public keys',
  },
  {
    reset: 'no-jwks-uri',
    field: 'jwksUri',
    value: null,
    instead: 'jwks-uri',
    description: 'drop the key set URI',
  },
  {
    reset: 'pkce-optional',
    field: 'requirePkce',
    value: false,
    instead: 'require-pkce',
    description: 'confidential client: sign-ins without PKCE again',
  },
  {
    reset: 'default-id-token-alg',
    field: 'idTokenSignedResponseAlg',
    value: null,
    instead: 'id-token-alg',
    description: "sign ID tokens with the provider's default",
  },
  {
    reset: 'no-backchannel-logout',
    field: 'backchannelLogoutUri',
    value: null,
    instead: 'backchannel-logout-uri',
    description: 'post no more logout tokens',
  },
  {
    reset: 'backchannel-logout-session-optional',
    field: 'backchannelLogoutSessionRequired',
    value: false,
    instead: 'backchannel-logout-session-required',
    description: 'logout tokens need not carry sid',
  },
];

/**
 * client:add of DESIGN §5 with every field of a registration (the admin API's register body),
 * client:list, client:show, client:update and client:remove.
 */
export const CLIENT_COMMANDS = [
  cliCommand({
    name: 'client:add',
    summary: 'register an OpenID Connect client (a relying party)',
    details:
      'Registers a relying party. Without --secret-stdin (or keys) it is a public client that must use\n' +
      'PKCE; with it, the client secret (32 or more printable characters) is read from standard input.\n' +
      'Redirect URIs are absolute http(s) URLs without a #fragment, compared exactly as given.\n' +
      'Defaults: grant type authorization_code, scopes openid email profile, authentication\n' +
      'client_secret_basic with a secret and none without. Refresh tokens need --grant-type\n' +
      'refresh_token and --scope offline_access; private_key_jwt needs --jwks or --jwks-uri.\n' +
      'Access tokens for a registered resource server are RFC 9068 JWTs unless --access-token-format\n' +
      'opaque makes them references the API introspects; tokens without a resource are always opaque.\n' +
      'With --admin it is a machine client of the admin HTTP API instead: it needs --secret-stdin,\n' +
      'takes no redirect URI, and may obtain client-credentials tokens with the scope keycard:admin.',
    flags: [
      ID_FLAG,
      ...registrationFlags(true),
      { name: 'admin', kind: 'switch', description: 'a client of the admin HTTP API (client credentials)' },
    ],
    secret: { flag: 'secret-stdin', field: 'secret', label: 'Client secret' },
    fieldFlags: { ...FIELD_FLAGS, admin: '--admin' },
    toRequest: (flags, secret) => ({
      command: 'client:add',
      input: {
        id: flags.value('id') ?? '',
        name: flags.value('name') ?? '',
        redirectUris: flags.list('redirect-uri'),
        postLogoutUris: flags.list('post-logout-uri'),
        secret,
        ...registrationOf(flags),
        ...(flags.has('admin') ? { admin: true } : {}),
      },
    }),
    result: clientView,
    format: (client) => describeClient(client, 'registered'),
  }),
  cliCommand({
    name: 'client:list',
    summary: 'list the registered clients (never their secrets)',
    details: 'Prints every registered client by id, one line each, as client:show tells it.',
    flags: [],
    fieldFlags: {},
    toRequest: () => ({ command: 'client:list', input: {} }),
    result: clientsView,
    format: ({ clients }) =>
      clients.length === 0
        ? 'no clients registered'
        : clients.map((client) => describeClient(client)).join('\n'),
  }),
  cliCommand({
    name: 'client:show',
    summary: 'show a registered client (never its secret)',
    details: 'Prints the registration of one client, as client:add and client:update tell it.',
    flags: [ID_FLAG],
    fieldFlags: { id: '--id' },
    toRequest: (flags) => ({ command: 'client:show', input: { id: flags.value('id') ?? '' } }),
    result: clientView,
    format: (client) => describeClient(client),
  }),
  cliCommand({
    name: 'client:update',
    summary: 'change a registered client (its URIs, its secret, its settings)',
    details:
      'Changes only what is given; lists replace the stored ones. The result must still be a working\n' +
      'client, by the rules of client:add. --secret-stdin reads a new secret from standard input: the\n' +
      'old one stops working at once, and so do the client-credentials tokens obtained with it, as they\n' +
      'do when the authentication method or keys change. Made public (--no-secret, --auth-method\n' +
      'none), it also loses its authorization codes, its refresh tokens and its sign-ins in progress,\n' +
      'which would then need no credential. Every instance uses the change with its next request. An\n' +
      'admin client keeps its shape (confidential, client credentials, keycard:admin).',
    flags: [ID_FLAG, ...registrationFlags(false), ...resetFlags(RESETS)],
    secret: { flag: 'secret-stdin', field: 'secret', label: 'New client secret' },
    fieldFlags: FIELD_FLAGS,
    toRequest: (flags, secret) => ({
      command: 'client:update',
      input: {
        id: flags.value('id') ?? '',
        name: flags.value('name'),
        redirectUris: listGiven(flags, 'redirect-uri'),
        postLogoutUris: listGiven(flags, 'post-logout-uri'),
        secret,
        ...registrationOf(flags),
        ...resetsGiven(flags, RESETS),
      },
    }),
    result: clientView,
    format: (client) => describeClient(client, 'changed'),
  }),
  cliCommand({
    name: 'client:remove',
    summary: 'remove a client, with everything issued to it',
    details:
      'Removes the registration. What the client was given ends with it, on every instance with its\n' +
      'next request: its grants, codes, refresh tokens, stored access tokens, sign-ins in progress and\n' +
      'its place in sessions; logout tokens not yet posted to it are dropped. JWT access tokens it got\n' +
      'for a resource server are checked by that API alone and live out their lifetime. Refused while\n' +
      'a registered resource server names it (resource:update first): a client registered later under\n' +
      'the same id would inherit that access. Admin clients are removed here only, not over the API.',
    flags: [ID_FLAG],
    fieldFlags: { id: '--id' },
    toRequest: (flags) => ({ command: 'client:remove', input: { id: flags.value('id') ?? '' } }),
    result: clientView,
    format: (client) => `removed client ${client.clientId} ("${client.productName}")`,
  }),
];
