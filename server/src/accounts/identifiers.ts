import { createHash } from 'node:crypto';

/** The address as it is stored and shown: trimmed and NFC, its letter case kept. */
export function storedEmailForm(email: string): string {
  return email.trim().normalize('NFC');
}

/** DESIGN §2: identifiers are e-mail addresses, trimmed, NFC, compared case-insensitively. */
export function normalizeEmail(email: string): string {
  return storedEmailForm(email).toLowerCase();
}

/** Key of the per-identifier failure counter; a hash so the table holds no addresses of non-users. */
export function identifierHash(email: string): string {
  return createHash('sha256')
    .update(`login:${normalizeEmail(email)}`)
    .digest('hex');
}

/** The domain part of a normalised e-mail address, or '' when there is none. */
export function emailDomain(email: string): string {
  const normalized = normalizeEmail(email);
  const at = normalized.lastIndexOf('@');
  return at < 0 ? '' : normalized.slice(at + 1);
}
