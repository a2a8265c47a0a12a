import { revokeSigningKeysBody, rotateSigningKeysBody } from '@keycard/contract';
import { z } from 'zod';

/** Inputs of the signing key operations (key-operations.ts); their answers are the contract's views. */
export {
  type RevokedSigningKeysView,
  revokedSigningKeysView,
  type SigningKeysView,
  signingKeysView,
} from '@keycard/contract';

/** keys:list takes nothing. */
export const listSigningKeysInput = z.strictObject({});
export type ListSigningKeysInput = z.input<typeof listSigningKeysInput>;

/**
 * keys:rotate: the admin API's body. The new keys are of the types that sign now, the periods
 * configured; `now` leaves out the grace period.
 */
export const rotateSigningKeysInput = rotateSigningKeysBody;
export type RotateSigningKeysInput = z.input<typeof rotateSigningKeysInput>;

/** keys:revoke: the admin API's body, the kids to withdraw. */
export const revokeSigningKeysInput = revokeSigningKeysBody;
export type RevokeSigningKeysInput = z.input<typeof revokeSigningKeysInput>;
