import { clientView } from '../provisioning/client-schemas.ts';
import { cliCommand } from './cli-command.ts';

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** The back-channel logout flags, given only when set. */
function backchannelFlags(flags: { value(name: string): string | undefined; has(name: string): boolean }) {
  const uri = flags.value('backchannel-logout-uri');
  return {
    ...(uri === undefined ? {} : { backchannelLogoutUri: uri }),
    ...(flags.has('backchannel-logout-session-required') ? { backchannelLogoutSessionRequired: true } : {}),
  };
}

/** client:add of DESIGN §5. */
export const CLIENT_COMMANDS = [
  cliCommand({
    name: 'client:add',
    summary: 'register an OpenID Connect client (a relying party)',
    details:
      'Registers a relying party. Without --secret-stdin it is a public client that must use PKCE;\n' +
      'with it, the client secret (32 or more printable characters) is read from standard input.\n' +
      'Redirect URIs are absolute http(s) URLs without a #fragment, compared exactly as given.\n' +
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
        description: 'where sign-in returns to (repeatable; required unless --admin)',
      },
      {
        name: 'post-logout-uri',
        kind: 'list',
        placeholder: 'URI',
        description: 'where sign-out may return to (repeatable)',
      },
      { name: 'secret-stdin', kind: 'switch', description: 'read the client secret from standard input' },
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
      { name: 'admin', kind: 'switch', description: 'a client of the admin HTTP API (client credentials)' },
    ],
    secret: { flag: 'secret-stdin', field: 'secret', label: 'Client secret' },
    fieldFlags: {
      id: '--id',
      name: '--name',
      redirectUris: '--redirect-uri',
      postLogoutUris: '--post-logout-uri',
      secret: '--secret-stdin',
      admin: '--admin',
      backchannelLogoutUri: '--backchannel-logout-uri',
    },
    toRequest: (flags, secret) => ({
      command: 'client:add',
      input: {
        id: flags.value('id') ?? '',
        name: flags.value('name') ?? '',
        redirectUris: flags.list('redirect-uri'),
        postLogoutUris: flags.list('post-logout-uri'),
        secret,
        ...(flags.has('admin') ? { admin: true } : {}),
        ...backchannelFlags(flags),
      },
    }),
    result: clientView,
    format: (client) =>
      client.admin
        ? `registered admin client ${client.clientId} ("${client.productName}"): client credentials, scope keycard:admin`
        : `registered ${client.kind} client ${client.clientId} ("${client.productName}"` +
          `${client.kind === 'public' ? ', PKCE' : ''}) with ${count(client.redirectUris.length, 'redirect URI')}` +
          ` and ${count(client.postLogoutRedirectUris.length, 'post-logout URI')}`,
  }),
];
