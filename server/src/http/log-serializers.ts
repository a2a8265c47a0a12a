import type { FastifyRequest } from 'fastify';
import { pathOf, withUnreservedDecoded } from './paths.ts';

/**
 * Paths whose segments after the prefix are live identifiers, each case-insensitive:
 * - SPA routes that carry a verification code (SPEC §2): codes are credentials.
 * - the provider's resume and interaction paths, `/oidc/auth/<uid>` and `/oidc/interaction/<uid>`:
 *   a live interaction id lets its holder finish or abort someone's sign-in;
 * - the device-flow resume path `/oidc/device/<uid>` (not `/oidc/device/auth`);
 * - a dev mailbox message, `/dev/mail/<id>`, which shows a live reset link.
 */
const IDENTIFIER_IN_PATH: readonly RegExp[] = [
  /^(\/(?:resetpassword|unlock|verifynewemail))\/./i,
  /^(\/oidc\/(?:auth|interaction))\/./i,
  /^(\/oidc\/device)\/(?!auth(?:\/|$))./i,
  /^(\/dev\/mail)\/./i,
];

/**
 * The request URL as it may appear in logs: no query string (return URLs, logout ids, login hints
 * with e-mail addresses, authorization codes, `state`, `request_uri`) and no code or live identifier
 * in the path (DESIGN §2 Audit log: never codes).
 */
export function loggableUrl(url: string): string {
  const path = pathOf(url);
  for (const pattern of IDENTIFIER_IN_PATH) {
    const prefix = pattern.exec(path)?.[1];
    if (prefix !== undefined) return `${prefix}/[redacted]`;
  }
  return path;
}

export const requestSerializers = {
  req(request: FastifyRequest) {
    // The URL as it came: the request line is written when the answer is complete, after the
    // provider's mount (oidc-mount.ts) has cut /oidc from the raw URL it hands on. Its escaped
    // letters decoded as for the router (paths.ts), so a code in `/%72esetPassword/<code>` is redacted too.
    return {
      method: request.method,
      url: loggableUrl(withUnreservedDecoded(request.originalUrl)),
      remoteAddress: request.ip,
    };
  },
};
