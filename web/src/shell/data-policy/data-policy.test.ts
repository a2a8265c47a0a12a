import { DATA_POLICY_DATE, LOG_RETENTION_DAYS } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import de from './de.ts';
import en from './en.ts';
import type { DataPolicyText } from './types.ts';

const WEEKS = LOG_RETENTION_DAYS / 7;

function fullText(policy: DataPolicyText): string {
  return policy.sections.flatMap((section) => [section.heading, ...section.paragraphs]).join('\n');
}

/** SPEC §1: the topics the policy must cover, as each language words them. */
const topics: Record<'en' | 'de', Readonly<Record<string, RegExp>>> = {
  en: {
    contract: /Art\. 6\(1\)\(b\) GDPR/,
    legalObligation: /Art\. 6\(1\)\(c\) GDPR/,
    legitimateInterests: /Art\. 6\(1\)\(f\) GDPR/,
    passwordHash: /one-way hash/,
    access: /Art\. 15 GDPR/,
    erasure: /Art\. 17 GDPR/,
    portability: /Art\. 20 GDPR/,
    objection: /Art\. 21 GDPR/,
    complaint: /supervisory authority/,
    withdrawal: /withdraw/,
    monitoring: /application-monitoring/,
    processor: /Art\. 28 GDPR/,
    contact: /contact form or by e-mail/,
    cookies: /strictly necessary/,
    noTracking: /tracking/,
    recoveryMail: /reset your password/,
    changes: /Changes to this policy/,
  },
  de: {
    contract: /Art\. 6 Abs\. 1 lit\. b DSGVO/,
    legalObligation: /Art\. 6 Abs\. 1 lit\. c DSGVO/,
    legitimateInterests: /Art\. 6 Abs\. 1 lit\. f DSGVO/,
    passwordHash: /Einweg-Hashwert/,
    access: /Art\. 15 DSGVO/,
    erasure: /Art\. 17 DSGVO/,
    portability: /Art\. 20 DSGVO/,
    objection: /Art\. 21 DSGVO/,
    complaint: /Aufsichtsbehörde/,
    withdrawal: /widerrufen/,
    monitoring: /Anwendungsüberwachung/,
    processor: /Art\. 28 DSGVO/,
    contact: /Kontaktformular oder per E-Mail/,
    cookies: /unbedingt erforderlich/,
    noTracking: /Tracking/,
    recoveryMail: /Zurücksetzen des Passworts/,
    changes: /Änderungen dieser Datenschutzerklärung/,
  },
};

describe('data policy', () => {
  it('has the same number of sections in both languages, within the planned 10 to 14', () => {
    expect(de.sections.length).toBe(en.sections.length);
    expect(en.sections.length).toBeGreaterThanOrEqual(10);
    expect(en.sections.length).toBeLessThanOrEqual(14);
  });

  it.each([
    ['en', en],
    ['de', de],
  ] as const)('gives every %s section a heading and non-empty paragraphs', (_language, policy) => {
    expect(policy.title.trim()).not.toBe('');
    for (const section of policy.sections) {
      expect(section.heading.trim(), 'heading').not.toBe('');
      expect(section.paragraphs.length, section.heading).toBeGreaterThan(0);
      for (const paragraph of section.paragraphs) expect(paragraph.trim(), section.heading).not.toBe('');
    }
  });

  it('is dated 29.05.2018 in both languages (SPEC §1)', () => {
    expect(de.dated).toBe(DATA_POLICY_DATE);
    expect(['29.05.2018', '29 May 2018']).toContain(en.dated);
  });

  it('states the 4-week (28-day) log retention in both languages (SPEC §9)', () => {
    expect(fullText(en)).toContain(`${WEEKS} weeks (${LOG_RETENTION_DAYS} days)`);
    expect(fullText(de)).toMatch(new RegExp(`${WEEKS} Wochen \\(${LOG_RETENTION_DAYS} Tagen?\\)`));
  });

  it.each([
    ['en', en],
    ['de', de],
  ] as const)('covers every topic SPEC §1 lists in %s', (language, policy) => {
    const text = fullText(policy);
    const missing = Object.entries(topics[language])
      .filter(([, pattern]) => !pattern.test(text))
      .map(([topic]) => topic);
    expect(missing).toEqual([]);
  });
});
