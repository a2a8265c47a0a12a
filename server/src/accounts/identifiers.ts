import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';

/** The address as it is stored and shown: trimmed and NFC, its letter case kept. */
export function storedEmailForm(email: string): string {
  return email.trim().normalize('NFC');
}

/**
 * DESIGN §2: identifiers are e-mail addresses, trimmed, NFC, compared case-insensitively; the domain
 * also in its IDNA ASCII form, so "ada@Bücher.example" and "ada@xn--bcher-kva.example" are one
 * identifier (a browser's e-mail field sends the second for the first). A domain that is no host
 * name is kept as written.
 */
export function normalizeEmail(email: string): string {
  const address = storedEmailForm(email).toLowerCase();
  const at = address.lastIndexOf('@');
  const ascii = at < 0 ? '' : domainToASCII(address.slice(at + 1));
  return ascii === '' ? address : `${address.slice(0, at + 1)}${ascii}`;
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
