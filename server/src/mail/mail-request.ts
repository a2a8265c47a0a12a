import { LANGUAGES } from '@keycard/contract';
import type { MailRequest } from './mail-kinds.ts';

/** A request the outbox refuses: an address it could not deliver to, or a link it must never send. */
export class MailRequestError extends Error {
  constructor(
    readonly field: 'to' | 'link' | 'language',
    message: string,
  ) {
    super(message);
    this.name = 'MailRequestError';
  }
}

/**
 * One plain address: a local part, one @, a dotted domain; no spaces, control characters or the
 * separators ( , ; : < > " ) that would make a mail library read several recipients, a display name
 * or a group: nodemailer reads `team:alice@example.com` as the group "team" of alice@example.com, and
 * would deliver there.
 */
const ADDRESS = /^[^\s@,;:<>"()\\\p{Cc}]{1,64}@[^\s@,;:<>"()\\\p{Cc}.]+(\.[^\s@,;:<>"()\\\p{Cc}.]+)+$/u;

export function isDeliverableAddress(value: string): boolean {
  return value.length <= 320 && ADDRESS.test(value);
}

/**
 * DESIGN §2: links in mail always use PUBLIC_URL, never the request's Host. The origin is compared
 * after parsing as well as by prefix, so neither `https://login.example.com.evil.test/` nor
 * `https://login.example.com@evil.test/` passes.
 */
export function isPublicLink(link: string, publicUrl: string): boolean {
  if (!link.startsWith(`${publicUrl}/`) || /[\s\p{Cc}]/u.test(link) || !URL.canParse(link)) return false;
  const url = new URL(link);
  return url.origin === publicUrl && url.username === '' && url.password === '';
}

/** Throws MailRequestError unless the request may be queued as it is. */
export function checkMailRequest(request: MailRequest, publicUrl: string): void {
  if (!(LANGUAGES as readonly string[]).includes(request.language)) {
    throw new MailRequestError('language', `mail language must be one of ${LANGUAGES.join(', ')}`);
  }
  if (!isDeliverableAddress(request.to)) {
    throw new MailRequestError('to', 'mail recipient is not a single e-mail address');
  }
  if ('link' in request.values && !isPublicLink(request.values.link, publicUrl)) {
    throw new MailRequestError('link', `mail link must start with ${publicUrl}/`);
  }
}
