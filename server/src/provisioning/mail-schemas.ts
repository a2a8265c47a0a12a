import { z } from 'zod';

/** Input and result of mail:failed (mail-operations.ts). */

export const failedMailInput = z.strictObject({
  /** Make the listed messages due again instead of only listing them. */
  retry: z.boolean().default(false),
});
export type FailedMailInput = z.input<typeof failedMailInput>;

/** One failed message as the operator sees it: never its body, which carries a live link. */
export const failedMailRow = z.object({
  id: z.string(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  failedAt: z.string(),
});
export type FailedMailRow = z.output<typeof failedMailRow>;

/** retried false: the failed messages, most recent failure first; true: those made due again. */
export const failedMailResult = z.object({ retried: z.boolean(), messages: z.array(failedMailRow) });
export type FailedMailResult = z.output<typeof failedMailResult>;
