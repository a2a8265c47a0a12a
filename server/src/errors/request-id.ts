import { randomFillSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_REFERENCE_ALPHABET, ERROR_REFERENCE_LENGTH, isErrorReference } from '@keycard/contract';

/**
 * Every request has an id: in its one log line (`reqId`), in this header of its answer, and as the
 * reference on the error page it may lead to (contract rules/error-reference.ts), so what a person
 * quotes, what a proxy logged and what the service logged are one value.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Random bytes drawn ahead for 256 ids at a time: one call into the system's generator, not one a request. */
const ID_BYTES = 5;
const pool = Buffer.alloc(ID_BYTES * 256);
let poolOffset = pool.length;

/** A fresh id: 40 random bits in Crockford's base32, short enough to read out on the phone. */
export function newRequestId(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  // 40 bits fit a double exactly; each character takes the next 5 of them, most significant first.
  let bits = pool.readUIntBE(poolOffset, ID_BYTES);
  poolOffset += ID_BYTES;
  let id = '';
  for (let index = 0; index < ERROR_REFERENCE_LENGTH; index++) {
    id = ERROR_REFERENCE_ALPHABET[bits % 32] + id;
    bits = Math.floor(bits / 32);
  }
  return id;
}

/**
 * The id of an incoming request: the one a trusted proxy set in X-Request-Id, so its log and this
 * service's name the request alike, when TRUST_PROXY is on and the value is one the error page would
 * show (a UUID or hex digits); otherwise, and for anyone else's header, a fresh one.
 */
export function requestIdGenerator(trustProxy: boolean): (request: IncomingMessage) => string {
  return (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    return trustProxy && typeof given === 'string' && isErrorReference(given) ? given : newRequestId();
  };
}

/** The id an answer carries in its header (set when its request arrived), if it is one. */
export function requestIdOf(response: ServerResponse): string | undefined {
  const id = response.getHeader(REQUEST_ID_HEADER);
  return typeof id === 'string' && isErrorReference(id) ? id : undefined;
}
