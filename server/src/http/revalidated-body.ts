import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Content codings the service sends, in order of preference (Brotli is the smaller). */
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

/**
 * An answer that only changes with a deploy or the configuration, prepared once: its bytes in each
 * coding and an ETag. Weak, because the Brotli, gzip and plain bytes share it; that is all
 * If-None-Match needs (RFC 9110 §13.1.2 compares weakly).
 */
export interface PreparedBody {
  readonly etag: string;
  readonly contentType: string;
  readonly bytes: Readonly<Record<Encoding | 'identity', Buffer>>;
}

export function prepareBody(text: string, contentType: string): PreparedBody {
  const identity = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
  return {
    etag: `W/"${hash}"`,
    contentType,
    bytes: {
      identity,
      br: brotliCompressSync(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength,
        },
      }),
      gzip: gzipSync(identity, { level: constants.Z_BEST_COMPRESSION }),
    },
  };
}

/** Whether If-None-Match names this ETag (or `*`), compared weakly. */
export function stillValid(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * Sends a prepared body to be revalidated on every use (Cache-Control: no-cache): 304 without a body
 * when the browser's copy is still the current one, otherwise the bytes in the best coding the
 * browser accepts.
 */
export function sendRevalidated(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PreparedBody,
): FastifyReply {
  reply.header('cache-control', 'no-cache').header('etag', body.etag).header('vary', 'Accept-Encoding');
  if (stillValid(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  const acceptEncoding = request.headers['accept-encoding'];
  const encoding = acceptEncoding ? negotiate(acceptEncoding, [...ENCODINGS]) : null;
  reply.type(body.contentType);
  if (encoding === null) return reply.send(body.bytes.identity);
  return reply.header('content-encoding', encoding).send(body.bytes[encoding]);
}
