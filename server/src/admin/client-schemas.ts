import { z } from 'zod';
import { clientIdField, clientSecretField, productNameField, redirectUriField } from './admin-fields.ts';

/** Input and result of registering an OIDC client (client-operations.ts). */

const uriList = z.array(redirectUriField).max(20, 'at most 20 URIs');

export const addClientInput = z.strictObject({
  id: clientIdField,
  name: productNameField,
  redirectUris: uriList.min(1, 'at least one redirect URI is required'),
  postLogoutUris: uriList.optional(),
  /** Absent: a public client that must use PKCE. */
  secret: clientSecretField.optional(),
});
export type AddClientInput = z.input<typeof addClientInput>;

export const addClientResult = z.object({
  clientId: z.string(),
  productName: z.string(),
  kind: z.enum(['public', 'confidential']),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
});
export type AddClientResult = z.output<typeof addClientResult>;
