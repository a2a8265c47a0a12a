import { asciiDomain } from './identifiers.ts';

/**
 * The lookup form of an e-mail domain: lower-case IDNA ASCII, so "Bücher.Example" and
 * "xn--bcher-kva.example" are one binding. '' when it is not a dotted host name. Converted as an
 * address's domain is (identifiers.ts), not by a URL's host parser, which reads "example%2ecom" or
 * "example\u3002com" as example.com: a binding would then send upstream an address that is not one
 * of its domain's accounts, and its provider's sign-in would make a second account of it.
 */
export function normalizeDomain(value: string): string {
  const ascii = asciiDomain(value.trim().normalize('NFC').toLowerCase());
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(ascii)) return '';
  return ascii;
}

/**
 * The key a domain's upstream binding is stored under, or null when there is no domain to bind (nothing
 * is bound to it). Bindings are stored in IDNA ASCII form, so "bücher.example" finds "xn--bcher-kva.example".
 * Sign-in (login-facts.ts) and home-realm discovery (federation/) both look bindings up by it.
 */
export function bindingLookupKey(domain: string): string | null {
  const lookup = normalizeDomain(domain);
  return lookup === '' ? null : lookup;
}
