import type { SigningKeyView } from '@keycard/contract';
import { type SigningKeysView, signingKeysView } from '../provisioning/key-schemas.ts';
import { cliCommand } from './cli-command.ts';

function describeKey(key: SigningKeyView): string {
  const times =
    key.state === 'next'
      ? `signs from ${key.signsFrom}`
      : key.state === 'current'
        ? key.signsFrom === null
          ? 'signs'
          : `signs since ${key.signsFrom}`
        : `stopped signing ${key.signsUntil}, published until ${key.publishedUntil}`;
  return `  ${key.kid}  ${key.kty} ${key.algorithms.join('/')}  ${key.state} (${key.origin}): ${times}`;
}

function listing(view: SigningKeysView): string {
  return ['published signing keys, those that sign first:', ...view.keys.map(describeKey)].join('\n');
}

function rotated(view: SigningKeysView): string {
  const fresh = view.keys.filter((key) => key.state === 'next');
  const from = fresh[0]?.signsFrom ?? 'now';
  return [
    `added ${fresh.length} key${fresh.length === 1 ? '' : 's'}, published now, signing from ${from};`,
    'the keys they replace stay published until the tokens they signed have expired.',
    listing(view),
  ].join('\n');
}

/** keys:list and keys:rotate (DESIGN §1 signing keys). */
export const KEY_COMMANDS = [
  cliCommand({
    name: 'keys:list',
    summary: 'list the published signing keys: next, current and retired',
    details:
      'Lists the keys published at /oidc/jwks with their kid, type, algorithms and state: next (published,\n' +
      'signs after the grace period), current (signs) or retired (published until the tokens it signed\n' +
      'have expired). Private parts are never shown.',
    flags: [],
    fieldFlags: {},
    toRequest: () => ({ command: 'keys:list', input: {} }),
    result: signingKeysView,
    format: listing,
  }),
  cliCommand({
    name: 'keys:rotate',
    summary: 'add new signing keys that sign after the grace period',
    details:
      'Adds a new key for each key type that signs now. It is published at once and signs after\n' +
      'OIDC_KEY_GRACE_MINUTES (default 60), when relying parties have fetched it; the keys it replaces\n' +
      'stay published for OIDC_KEY_RETAIN_MINUTES (default 1440) after that, then leave the key set.\n' +
      'Refused while the keys of the last rotation do not sign yet.',
    flags: [],
    fieldFlags: {},
    toRequest: () => ({ command: 'keys:rotate', input: {} }),
    result: signingKeysView,
    format: rotated,
  }),
];
