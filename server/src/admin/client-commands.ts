import { type AddClientInput, type ClientView, clientView } from '../provisioning/client-schemas.ts';
import { cliCommand } from './cli-command.ts';

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
function backchannelFlags(flags: { value(name: string): string | undefined; has(name: string): boolean }) {
  const uri = flags.value('backchannel-logout-uri');
  return {
    ...(uri === undefined ? {} : { backchannelLogoutUri: uri }),
    ...(flags.has('backchannel-logout-session-required') ? { backchannelLogoutSessionRequired: true } : {}),
  };
}

const pkceOf = (client: ClientView) => (client.requirePkce ? ', PKCE' : '');

function describeClient(client: ClientView): string {
  if (client.admin) {
    return `registered admin client ${client.clientId} ("${client.productName}"): client credentials, scope keycard:admin`;
  }
  return (
    `registered ${client.kind} client ${client.clientId} ("${client.productName}"${pkceOf(client)})` +
    ` with ${count(client.redirectUris.length, 'redirect URI')}` +
    ` and ${count(client.postLogoutRedirectUris.length, 'post-logout URI')}` +
    `; grant types ${client.grantTypes.join(' ')}; scopes ${client.scopes.join(' ')}` +
    `; token endpoint authentication ${client.tokenEndpointAuthMethod}` +
    (client.idTokenSignedResponseAlg ? `; ID tokens ${client.idTokenSignedResponseAlg}` : '') +
    (client.backchannelLogoutUri ? `; back-channel logout to ${client.backchannelLogoutUri}` : '') +
    (client.accessTokenFormat === 'opaque' ? '; opaque access tokens for resource servers' : '')
  );
}

/** client:add of DESIGN §5, with every field of a registration (the admin API's register body). */
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
      {
        name: 'id',
        kind: 'value',
        required: true,
        placeholder: 'ID',
        description: 'client_id: 3–64 of A–Z a–z 0–9 . _ -',
      },
      {
        name: 'name',
        kind: 'value',
        required: true,
        placeholder: '"Product name"',
        description: 'product name shown on the sign-in page',
      },
      {
        name: 'redirect-uri',
        kind: 'list',
        placeholder: 'URI',
        description: 'where sign-in returns to (repeatable; required with authorization_code)',
      },
      {
        name: 'post-logout-uri',
        kind: 'list',
        placeholder: 'URI',
        description: 'where sign-out may return to (repeatable)',
      },
      { name: 'secret-stdin', kind: 'switch', description: 'read the client secret from standard input' },
      {
        name: 'grant-type',
        kind: 'list',
        placeholder: 'GRANT',
        description: 'authorization_code, refresh_token or client_credentials (repeatable)',
      },
      {
        name: 'scope',
        kind: 'list',
        placeholder: 'SCOPE',
        description: 'openid, email, profile or offline_access (repeatable)',
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
      { name: 'admin', kind: 'switch', description: 'a client of the admin HTTP API (client credentials)' },
    ],
    secret: { flag: 'secret-stdin', field: 'secret', label: 'Client secret' },
    fieldFlags: {
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
      admin: '--admin',
      backchannelLogoutUri: '--backchannel-logout-uri',
    },
    toRequest: (flags, secret) => {
      const list = (name: string) => (flags.list(name).length > 0 ? flags.list(name) : undefined);
      return {
        command: 'client:add',
        input: {
          id: flags.value('id') ?? '',
          name: flags.value('name') ?? '',
          redirectUris: flags.list('redirect-uri'),
          postLogoutUris: flags.list('post-logout-uri'),
          secret,
          grantTypes: list('grant-type') as AddClientInput['grantTypes'],
          scopes: list('scope') as AddClientInput['scopes'],
          tokenEndpointAuthMethod: flags.value('auth-method') as AddClientInput['tokenEndpointAuthMethod'],
          jwks: jwksOf(flags.value('jwks')) as AddClientInput['jwks'],
          jwksUri: flags.value('jwks-uri'),
          ...(flags.has('require-pkce') ? { requirePkce: true } : {}),
          idTokenSignedResponseAlg: flags.value('id-token-alg') as AddClientInput['idTokenSignedResponseAlg'],
          accessTokenFormat: flags.value('access-token-format') as AddClientInput['accessTokenFormat'],
          ...(flags.has('admin') ? { admin: true } : {}),
          ...backchannelFlags(flags),
        },
      };
    },
    result: clientView,
    format: describeClient,
  }),
];
