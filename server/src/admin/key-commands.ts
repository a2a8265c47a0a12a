import type { SigningKeyView } from '@keycard/contract';
import {
  type RevokedSigningKeysView,
  revokedSigningKeysView,
  type SigningKeysView,
  signingKeysView,
} from '../provisioning/key-schemas.ts';
import { cliCommand } from './cli-command.ts';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

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
  const next = view.keys.filter((key) => key.state === 'next');
  if (next.length === 0) {
    // keys:rotate --now: the keys that sign are the new ones.
    const current = view.keys.filter((key) => key.state === 'current');
    return [
      `added ${plural(current.length, 'key')}, published and signing now;`,
      'the keys they replace stay published until the tokens they signed have expired.',
      listing(view),
    ].join('\n');
  }
  return [
    `added ${plural(next.length, 'key')}, published now, signing from ${next[0]?.signsFrom};`,
    'the keys they replace stay published until the tokens they signed have expired.',
    listing(view),
  ].join('\n');
}

function revoked(view: RevokedSigningKeysView): string {
  const lines = [
    view.revoked.length > 0
      ? `revoked ${view.revoked.join(', ')}: no longer published or signing (every instance applies it at its next request, within 30 s at most).`
      : 'revoked nothing new.',
  ];
  if (view.alreadyRevoked.length > 0)
    lines.push(`already revoked before: ${view.alreadyRevoked.join(', ')}.`);
  if (view.replacements.length > 0) {
    lines.push(
      `${plural(view.replacements.length, 'new key')} ${view.replacements.length === 1 ? 'signs' : 'sign'} from now: ${view.replacements.join(', ')}.`,
    );
  }
  lines.push(
    'Relying parties that cached the key set keep trusting a revoked kid until they fetch it again:',
    'tell them to, and to refuse tokens it signed. Remove a revoked kid from OIDC_JWKS as well.',
  );
  return [...lines, listing(view)].join('\n');
}

/** keys:list, keys:rotate and keys:revoke (DESIGN §1 signing keys). */
export const KEY_COMMANDS = [
  cliCommand({
    name: 'keys:list',
    summary: 'list the published signing keys: next, current and retired',
    details:
      'Lists the keys published at /oidc/jwks with their kid, type, algorithms and state: next (published,\n' +
      'signs after the grace period), current (signs) or retired (published until the tokens it signed\n' +
      'have expired). Private parts and revoked keys are never shown.',
    flags: [],
    fieldFlags: {},
    toRequest: () => ({ command: 'keys:list', input: {} }),
    result: signingKeysView,
    format: listing,
  }),
  cliCommand({
    name: 'keys:rotate',
    summary: 'add new signing keys that sign after the grace period (--now: at once)',
    details:
      'Adds a new key for each key type that signs now. It is published at once and signs after\n' +
      'OIDC_KEY_GRACE_MINUTES (default 60), when relying parties have fetched it; the keys it replaces\n' +
      'stay published for OIDC_KEY_RETAIN_MINUTES (default 1440) after that, then leave the key set.\n' +
      'Refused while the keys of the last rotation do not sign yet. With --now (a key may have leaked)\n' +
      'the new keys sign at once, also while an earlier rotation waits (its keys are dropped). The\n' +
      'periods are those of the process that runs the command: with DATABASE_URL, this one.',
    flags: [{ name: 'now', kind: 'switch', description: 'sign at once, without the grace period' }],
    fieldFlags: { now: '--now' },
    toRequest: (flags) => ({ command: 'keys:rotate', input: flags.has('now') ? { now: true } : {} }),
    result: signingKeysView,
    format: rotated,
  }),
  cliCommand({
    name: 'keys:revoke',
    summary: 'withdraw leaked signing keys at once: never published or signing again',
    details:
      'Withdraws the keys of the kids given, stored or of OIDC_JWKS alike: from now on no instance\n' +
      'publishes them at /oidc/jwks or signs with them, and tokens they signed no longer verify there.\n' +
      'A revoked key that signs (or waits to) is replaced by a new key of each type that signs at once.\n' +
      'An unknown kid refuses the command; one revoked before is reported and left as it is.',
    flags: [
      {
        name: 'kid',
        kind: 'list',
        required: true,
        placeholder: 'KID',
        description: 'the kid of a key to revoke, as keys:list shows it (repeatable)',
      },
    ],
    fieldFlags: { kids: '--kid' },
    toRequest: (flags) => ({ command: 'keys:revoke', input: { kids: flags.list('kid') } }),
    result: revokedSigningKeysView,
    format: revoked,
  }),
];
