import { z } from 'zod';

/** Input and result of backchannel:failed (backchannel-operations.ts). */

export const failedLogoutsInput = z
  .strictObject({
    /** Make the failed logout tokens due again instead of only listing them. */
    retry: z.boolean().default(false),
    /** Only this one (with retry). */
    id: z.uuid({ error: 'must be the id of a failed logout token (a UUID)' }).optional(),
  })
  .refine((input) => input.id === undefined || input.retry, {
    message: 'names the one to retry: give it with retry',
    path: ['id'],
  });
export type FailedLogoutsInput = z.input<typeof failedLogoutsInput>;

/** One given-up logout token as the operator sees it: never what the token says. */
export const failedLogoutRow = z.object({
  id: z.string(),
  clientId: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** ISO 8601, UTC: when the session ended, and when the worker gave up. */
  createdAt: z.string(),
  failedAt: z.string(),
});
export type FailedLogoutRow = z.output<typeof failedLogoutRow>;

/** retried false: the failed logout tokens, most recent failure first; true: those made due again. */
export const failedLogoutsResult = z.object({ retried: z.boolean(), logouts: z.array(failedLogoutRow) });
export type FailedLogoutsResult = z.output<typeof failedLogoutsResult>;
