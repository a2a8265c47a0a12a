import { plainText } from '@keycard/contract';
import { z } from 'zod';
import { normalizeDomain } from '../accounts/domain-key.ts';
import { isAcceptableIssuer } from '../federation/issuer-url.ts';
import { displayNameField } from './input-fields.ts';

/**
 * Inputs and results of the upstream-provider operations (provider-operations.ts), shared by the admin
 * CLI, the admin socket and the admin HTTP API. Messages never echo a value: it may be a secret.
 */

/** The issuer identifier exactly as the provider states it in its discovery document (OIDC Discovery §4.3). */
export const issuerField = plainText({ error: 'is required' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    isAcceptableIssuer,
    'must be an https URL without query or #fragment (http only on localhost), e.g. https://login.example.com',
  );

/**
 * An e-mail domain as home-realm discovery compares it: lower-case IDNA ASCII form, so "Bücher.Example"
 * and "xn--bcher-kva.example" are the same binding.
 */
export const domainField = plainText({ error: 'is required' })
  .trim()
  .max(253, 'must be at most 253 characters')
  .transform((value) => normalizeDomain(value))
  .refine((value) => value !== '', 'must be a domain name such as example.com');

const upstreamClientIdField = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** Issued by the upstream provider, so no length rule of ours; printable ASCII survives Basic auth. */
const upstreamClientSecretField = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(512, 'must be at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/**
 * The sign-in needs the e-mail and email_verified claims (in the ID token or from UserInfo), which
 * only the email scope asks for (OpenID Connect Core §5.4), hence openid + email by default.
 */
export const DEFAULT_UPSTREAM_SCOPES = ['openid', 'email', 'profile'] as const;

const scopesField = z
  .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/, 'must be scope tokens (RFC 6749 §3.3)'))
  .max(20, 'at most 20 scopes')
  .refine((scopes) => scopes.includes('openid'), 'must include openid')
  // Without it every sign-in would be refused for want of a verified address, only at the callback.
  .refine(
    (scopes) => scopes.includes('email'),
    'must include email: sign-in needs the e-mail address and email_verified claims',
  );

export const providerIdField = z.uuid({ error: 'must be the provider id (a GUID)' });

export const addUpstreamProviderInput = z.strictObject({
  name: displayNameField.pipe(z.string().max(100, 'must be at most 100 characters')),
  issuer: issuerField,
  clientId: upstreamClientIdField,
  clientSecret: upstreamClientSecretField,
  scopes: scopesField.optional(),
  /** A provider nobody is sent to is a mistake, so at least one domain is bound at once. */
  domains: z.array(domainField).min(1, 'at least one domain is required').max(100, 'at most 100 domains'),
});
export type AddUpstreamProviderInput = z.input<typeof addUpstreamProviderInput>;

export const domainBindingInput = z.strictObject({ providerId: providerIdField, domain: domainField });
export type DomainBindingInput = z.input<typeof domainBindingInput>;

export const findUpstreamProviderInput = z.strictObject({ providerId: providerIdField });
export type FindUpstreamProviderInput = z.input<typeof findUpstreamProviderInput>;

/** A provider as admins see it: never the client secret. */
export const upstreamProviderView = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  scopes: z.array(z.string()),
  domains: z.array(z.string()),
});
export type UpstreamProviderView = z.output<typeof upstreamProviderView>;

export const upstreamProviderList = z.object({ providers: z.array(upstreamProviderView) });
export type UpstreamProviderList = z.output<typeof upstreamProviderList>;
