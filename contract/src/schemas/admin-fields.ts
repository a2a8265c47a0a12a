import { z } from 'zod';

/**
 * Field schemas of admin inputs, shared by the admin CLI, the admin socket and the admin HTTP API
 * (DESIGN §1 Provisioning). Messages say what a good value looks like and never echo the value (it
 * may be a secret).
 */

const CONTROL = /\p{Cc}/u;

/** DESIGN §2: e-mail identifiers are trimmed; one @, a dotted domain, no spaces or control characters. */
export const emailField = z
  .string({ error: 'is required' })
  .trim()
  .max(320, 'must be at most 320 characters')
  .regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u, 'must be an e-mail address such as ada@example.com')
  .refine((value) => !CONTROL.test(value), 'must not contain control characters');

export const displayNameField = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((value) => !CONTROL.test(value), 'must not contain control characters');

/** An account's id as the admin API names it in paths and results. */
export const accountIdField = z.uuid({ error: 'must be an account id (a UUID)' });

export const clientIdField = z
  .string({ error: 'is required' })
  .regex(/^[A-Za-z0-9._-]{3,64}$/, 'must be 3 to 64 characters from A–Z, a–z, 0–9, ".", "_" and "-"');

export const productNameField = displayNameField.pipe(z.string().max(100, 'must be at most 100 characters'));

/** An absolute http(s) URL without fragment or credentials, stored exactly as given (RPs compare strings). */
export const redirectUriField = z
  .string({ error: 'is required' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    isRedirectUri,
    'must be an absolute http(s) URL without a #fragment, e.g. https://app.example/callback',
  );

function isRedirectUri(value: string): boolean {
  if (/[\s#]/u.test(value) || CONTROL.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === ''
  );
}

/**
 * A client secret for client_secret_basic: long enough to resist guessing, printable ASCII so it
 * survives Basic authentication headers unchanged.
 */
export const clientSecretField = z
  .string()
  .min(32, 'must be at least 32 characters')
  .max(512, 'must be at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** The first password of an account; the policy is checked with the e-mail on the server. */
export const passwordField = z.string().max(4096, 'is too long');

/** At most 20 redirect or post-logout URIs per client. */
export const uriListField = z.array(redirectUriField).max(20, 'at most 20 URIs');
