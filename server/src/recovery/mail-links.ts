import type { VerificationType } from '@keycard/contract';

/**
 * Links carried by mail (SPEC §2 routes). Always built from PUBLIC_URL, never from a request's Host
 * (DESIGN §2), and the code is the last path segment, as the SPA reads it.
 */

export function resetPasswordLink(
  publicUrl: string,
  type: VerificationType,
  code: string,
  query = '',
): string {
  return `${publicUrl}/resetPassword/${type}/${encodeURIComponent(code)}${query}`;
}

export function unlockLink(publicUrl: string, code: string): string {
  return `${publicUrl}/unlock/${encodeURIComponent(code)}`;
}

export function verifyNewEmailLink(publicUrl: string, code: string): string {
  return `${publicUrl}/verifyNewEmail/${encodeURIComponent(code)}`;
}
