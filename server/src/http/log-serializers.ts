import type { FastifyRequest } from 'fastify';
import { pathOf } from './paths.ts';

/** SPA routes that carry a verification code in the path (SPEC §2). */
const CODE_IN_PATH = /^\/(resetpassword|unlock|verifynewemail)\/./i;

/**
 * The request URL as it may appear in logs: no query string (return URLs, logout ids, login hints
 * with e-mail addresses) and no verification code in the path — codes are credentials (DESIGN §2
 * Audit log: never codes).
 */
export function loggableUrl(url: string): string {
  const path = pathOf(url);
  return CODE_IN_PATH.test(path) ? `/${path.split('/')[1]}/[redacted]` : path;
}

export const requestSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip };
  },
};
