import { z } from 'zod';

/**
 * What the callback needs to finish one upstream sign-in (DESIGN §1 Federation). It travels in a
 * signed, HttpOnly cookie of this browser rather than in the database, so any instance can finish
 * a flow another one started and nothing is left behind when the person gives up upstream.
 */
export const upstreamFlowSchema = z.strictObject({
  providerId: z.uuid(),
  state: z.string().min(1).max(128),
  nonce: z.string().min(1).max(128),
  codeVerifier: z.string().min(43).max(128),
  /** The sign-in interaction's local resume path (checked again at the callback). */
  returnUrl: z.string().min(1).max(2048),
  /** Epoch milliseconds after which the flow is refused, whatever the browser kept. */
  expiresAt: z.number().int(),
});
export type UpstreamFlow = z.output<typeof upstreamFlowSchema>;

/** Ten minutes to sign in upstream; the cookie's Max-Age and the check in readFlow agree. */
export const UPSTREAM_FLOW_TTL_SECONDS = 10 * 60;

export function encodeFlow(flow: UpstreamFlow): string {
  return Buffer.from(JSON.stringify(flow), 'utf8').toString('base64url');
}

/** The flow when `value` decodes to one that has not expired, else null. */
export function decodeFlow(value: string, now: Date): UpstreamFlow | null {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = upstreamFlowSchema.safeParse(json);
  if (!parsed.success || parsed.data.expiresAt <= now.getTime()) return null;
  return parsed.data;
}
