import { upstreamProviderView } from '../provisioning/provider-schemas.ts';
import { cliCommand } from './cli-command.ts';

/** idp:add of DESIGN §5: an upstream OpenID Connect provider for the e-mail domains bound to it. */
export const IDP_COMMANDS = [
  cliCommand({
    name: 'idp:add',
    summary: 'register an upstream OpenID Connect provider for e-mail domains',
    details:
      'Registers an upstream provider and binds e-mail domains to it: people whose e-mail is on one of\n' +
      'them sign in there instead of with a password. The client secret is read from standard input.\n' +
      'Register PUBLIC_URL/api/ExternalIdentityProviderCallback as the redirect URI at the provider.\n' +
      'Prints the provider id (a GUID).',
    flags: [
      {
        name: 'name',
        kind: 'value',
        required: true,
        placeholder: 'N',
        description: 'name for admins, e.g. "Contoso staff"',
      },
      {
        name: 'issuer',
        kind: 'value',
        required: true,
        placeholder: 'URL',
        description: "the provider's issuer, https (http only on localhost)",
      },
      {
        name: 'client-id',
        kind: 'value',
        required: true,
        placeholder: 'ID',
        description: 'client_id Keycard has at the provider',
      },
      {
        name: 'client-secret-stdin',
        kind: 'switch',
        required: true,
        description: 'read the client secret from standard input',
      },
      {
        name: 'domain',
        kind: 'list',
        required: true,
        placeholder: 'D',
        description: 'e-mail domain signed in at this provider (repeatable)',
      },
    ],
    secret: { flag: 'client-secret-stdin', field: 'clientSecret', label: 'Client secret' },
    fieldFlags: {
      name: '--name',
      issuer: '--issuer',
      clientId: '--client-id',
      clientSecret: '--client-secret-stdin',
      domains: '--domain',
    },
    toRequest: (flags, secret) => ({
      command: 'idp:add',
      input: {
        name: flags.value('name') ?? '',
        issuer: flags.value('issuer') ?? '',
        clientId: flags.value('client-id') ?? '',
        // Before standard input is read the request is validated without it; any placeholder will do.
        clientSecret: secret ?? 'unread',
        domains: flags.list('domain'),
      },
    }),
    result: upstreamProviderView,
    // The GUID alone (DESIGN §5), so scripts can capture it; --json tells the rest.
    format: (provider) => provider.id,
  }),
];
