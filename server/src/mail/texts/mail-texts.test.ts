import { describe, expect, it } from 'vitest';
import type { MailKind, MailValues } from '../mail-kinds.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { type MailTexts, RENDERER_ONLY_VALUES, SITE_PLACEHOLDERS } from './mail-texts.ts';

/** The values of each kind (mail-kinds.ts); a template may use these besides the site placeholders. */
const VALUES: { readonly [K in MailKind]: readonly (keyof MailValues[K])[] } = {
  password_reset: ['userName', 'link'],
  unlock: ['userName', 'link'],
  invitation: ['userName', 'link'],
  email_change_confirm: ['userName', 'link', 'newEmail'],
  email_change_notice: ['userName', 'newEmail'],
  email_changed: ['userName', 'newEmail'],
  password_expired: ['userName'],
  password_changed: ['userName'],
  federated_account: ['userName', 'providerName'],
};
const KINDS = Object.keys(VALUES) as MailKind[];

const languages: ReadonlyArray<readonly [string, MailTexts]> = [
  ['en', en],
  ['de', de],
];

function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

/** Every text of a kind with a name for messages, in a fixed order so languages compare field by field. */
function textsOf(texts: MailTexts, kind: MailKind): [string, string][] {
  const k = texts.kinds[kind];
  return [
    ['subject', k.subject],
    ...k.intro.map((text, i): [string, string] => [`intro ${i}`, text]),
    ...(k.action === undefined ? [] : [['action', k.action] as [string, string]]),
    ...k.outro.map((text, i): [string, string] => [`outro ${i}`, text]),
  ];
}

describe.each(languages)('%s mail texts', (_language, texts) => {
  it('covers exactly the mail kinds of mail-kinds.ts', () => {
    expect(Object.keys(texts.kinds).sort()).toEqual([...KINDS].sort());
  });

  it('has no empty value', () => {
    for (const [name, text] of Object.entries(texts.common)) expect(text.trim(), name).not.toBe('');
    for (const kind of KINDS) {
      expect(texts.kinds[kind].intro.length, kind).toBeGreaterThan(0);
      for (const [name, text] of textsOf(texts, kind)) expect(text.trim(), `${kind} ${name}`).not.toBe('');
    }
  });

  it('uses only the values of its kind and the site placeholders, never the link', () => {
    for (const kind of KINDS) {
      const allowed = [
        ...VALUES[kind].filter((name) => !(RENDERER_ONLY_VALUES as readonly string[]).includes(String(name))),
        ...SITE_PLACEHOLDERS,
      ].map(String);
      for (const [name, text] of textsOf(texts, kind)) {
        for (const placeholder of placeholdersOf(text))
          expect(allowed, `${kind} ${name}`).toContain(placeholder);
        expect(text.replace(/\{\w+\}/g, ''), `${kind} ${name}`).not.toMatch(/[{}]/);
      }
    }
    expect(placeholdersOf(texts.common.greeting)).toEqual(['userName']);
  });

  it('has a link label exactly for the kinds that carry a link', () => {
    for (const kind of KINDS) {
      expect(texts.kinds[kind].action !== undefined, kind).toBe(VALUES[kind].includes('link' as never));
    }
  });

  it('says in every link mail that the link expires, and tells the notices to contact support', () => {
    for (const kind of ['password_reset', 'unlock', 'invitation', 'email_change_confirm'] as const) {
      expect(texts.kinds[kind].outro.join(' '), kind).toMatch(/expire|gültig/i);
      expect(texts.kinds[kind].outro.join(' '), kind).toMatch(/ignore|ignorieren/i);
    }
    for (const kind of ['email_change_notice', 'password_expired', 'password_changed'] as const) {
      expect(placeholdersOf(texts.kinds[kind].outro.join(' ')), kind).toContain('supportEmail');
    }
  });
});

describe('English and German mail texts', () => {
  it('use the same placeholders in every text', () => {
    expect(placeholdersOf(Object.values(de.common).join(' '))).toEqual(
      placeholdersOf(Object.values(en.common).join(' ')),
    );
    for (const kind of KINDS) {
      const english = textsOf(en, kind);
      const german = textsOf(de, kind);
      expect(
        german.map(([name]) => name),
        kind,
      ).toEqual(english.map(([name]) => name));
      english.forEach(([name, text], i) => {
        expect(placeholdersOf(german[i]?.[1] ?? ''), `${kind} ${name}`).toEqual(placeholdersOf(text));
      });
    }
  });

  it('are translated rather than copied', () => {
    for (const kind of KINDS) {
      const german = textsOf(de, kind);
      textsOf(en, kind).forEach(([name, text], i) => {
        expect(german[i]?.[1], `${kind} ${name}`).not.toBe(text);
      });
    }
  });
});
