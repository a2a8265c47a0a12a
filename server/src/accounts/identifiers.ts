import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';

/** The address as it is stored and shown: trimmed and NFC, its letter case kept. */
export function storedEmailForm(email: string): string {
  return email.trim().normalize('NFC');
}

/** A domain of letters (any script, with their marks), digits, dots and hyphens: a host name to be. */
const INTERNATIONAL_DOMAIN = /^[\p{L}\p{M}\p{N}.-]+$/u;
/** What IDNA ASCII gives for such a domain. */
const ASCII_DOMAIN = /^[a-z0-9.-]+$/;

/**
 * A lower-case domain with a character outside ASCII in its IDNA ASCII form; any other as it is.
 * Only a plain host name is converted: node's domainToASCII parses a URL's host, which would cut
 * "example.com/x" at its slash, decode "%61" and rewrite a numeric address, so different addresses
 * would share a key.
 */
export function asciiDomain(domain: string): string {
  if (/^\p{ASCII}*$/u.test(domain) || !INTERNATIONAL_DOMAIN.test(domain)) return domain;
  const ascii = domainToASCII(domain);
  return ASCII_DOMAIN.test(ascii) ? ascii : domain;
}

/**
 * DESIGN §2: identifiers are e-mail addresses, trimmed, NFC, compared case-insensitively; a domain
 * with letters outside ASCII also in its IDNA ASCII form, so "ada@Bücher.example" and
 * "ada@xn--bcher-kva.example" are one identifier (a browser's e-mail field sends the second for the
 * first). A domain that is no host name is kept as written.
 */
export function normalizeEmail(email: string): string {
  const address = storedEmailForm(email).toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  return `${address.slice(0, at + 1)}${asciiDomain(address.slice(at + 1))}`;
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
