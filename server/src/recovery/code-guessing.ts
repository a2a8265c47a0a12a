import { clientNetwork } from './client-network.ts';
import type { RecoveryLimits } from './recovery-limits.ts';

/**
 * DESIGN §2 Codes: wrong-code guessing is limited per IP. Once a client has presented too many unknown,
 * spent or expired codes, calls that take a code answer "invalid" without looking, for a while.
 */
function keyOf(ip: string | null): string {
  return clientNetwork(ip);
}

export function guessingBlocked(limits: RecoveryLimits, ip: string | null): Promise<boolean> {
  return limits.wrongCodesPerIp.exhausted(keyOf(ip));
}

export function countWrongCode(limits: RecoveryLimits, ip: string | null): Promise<void> {
  return limits.wrongCodesPerIp.add(keyOf(ip));
}
