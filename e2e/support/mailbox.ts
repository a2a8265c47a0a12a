import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BASE_URL_ENV, MAIL_DIR_ENV } from './paths.ts';
import type { SunkMail } from './smtp-sink.ts';

/**
 * What the service sent during the run, as the SMTP sink of global setup filed it. Journeys use
 * addresses of their own (support/accounts.ts), so the recipient alone tells their mail apart.
 */

export type { SunkMail } from './smtp-sink.ts';

/**
 * Long enough for mail queued by the admin CLI on PostgreSQL, which only the worker's next poll
 * (5 s) picks up, on a busy machine; mail of a request is sent at once.
 */
export const MAIL_TIMEOUT_MS = 30_000;
const POLL_MS = 200;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the journeys through playwright.config.ts`);
  return value;
}

async function readAllMail(): Promise<SunkMail[]> {
  const dir = required(MAIL_DIR_ENV);
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (name) => JSON.parse(await readFile(path.join(dir, name), 'utf8')) as SunkMail),
  );
}

function isTo(mail: SunkMail, address: string): boolean {
  return mail.to.some((to) => to.toLowerCase() === address.toLowerCase());
}

/** Every message sent to `address` so far, in the order the sink received them. */
export async function mailsTo(address: string): Promise<SunkMail[]> {
  return (await readAllMail()).filter((mail) => isTo(mail, address));
}

function describeMails(mails: readonly SunkMail[]): string {
  return mails.length === 0 ? 'none' : mails.map((mail) => `"${mail.subject}"`).join(', ');
}

/**
 * Waits until at least `count` messages were sent to `address` and answers all of them so far;
 * fails after `timeoutMs` naming what did arrive.
 */
export async function waitForMails(
  address: string,
  count: number,
  timeoutMs = MAIL_TIMEOUT_MS,
): Promise<SunkMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(address);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) {
      throw new Error(
        `expected ${count} message(s) to ${address} within ${timeoutMs} ms; received ${describeMails(mails)}`,
      );
    }
    await sleep(POLL_MS);
  }
}

/** Waits for the first message to `address` that `predicate` accepts. */
export async function waitForMail(
  address: string,
  predicate: (mail: SunkMail) => boolean = () => true,
  timeoutMs = MAIL_TIMEOUT_MS,
): Promise<SunkMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(address);
    const match = mails.find(predicate);
    if (match) return match;
    if (Date.now() > deadline) {
      throw new Error(
        `no matching message to ${address} within ${timeoutMs} ms; received ${describeMails(mails)}`,
      );
    }
    await sleep(POLL_MS);
  }
}

/** http(s) URLs of the plain-text part, in order. */
export function textLinks(mail: SunkMail): string[] {
  return [...mail.text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((match) => match[0]);
}

const ENTITY = /&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeHtml(value: string): string {
  return value.replace(ENTITY, (_match, decimal: string, hex: string, name: string) => {
    if (decimal) return String.fromCodePoint(Number(decimal));
    if (hex) return String.fromCodePoint(Number.parseInt(hex, 16));
    return NAMED[name.toLowerCase()] ?? '';
  });
}

/** href values of the HTML part's anchors, unescaped. */
export function htmlLinks(mail: SunkMail): string[] {
  return [...mail.html.matchAll(/<a\s[^>]*href="([^"]*)"/gi)].map((match) => unescapeHtml(match[1] ?? ''));
}

/** True when `link` is on the service's origin and its path starts with `pathPrefix`. */
function isServiceLink(link: string, pathPrefix: string): boolean {
  const url = new URL(link);
  return url.origin === new URL(required(BASE_URL_ENV)).origin && url.pathname.startsWith(pathPrefix);
}

/**
 * The one link of the message whose path starts with `pathPrefix` (e.g. `/resetPassword/1/`), on the
 * service's origin (PUBLIC_URL, DESIGN §2). Fails unless the text part carries exactly one such link
 * and the HTML part links to the very same address.
 */
export function mailLink(mail: SunkMail, pathPrefix: string): string {
  const inText = textLinks(mail).filter((link) => isServiceLink(link, pathPrefix));
  if (inText.length !== 1) {
    throw new Error(`"${mail.subject}" has ${inText.length} link(s) to ${pathPrefix} in its text part`);
  }
  const [link = ''] = inText;
  if (!htmlLinks(mail).includes(link)) {
    throw new Error(`the HTML part of "${mail.subject}" does not link to ${link}`);
  }
  return link;
}

/** The language the HTML part declares (`<html lang>`), or null without one. */
export function mailLanguage(mail: SunkMail): string | null {
  return /<html[^>]*\slang="([^"]*)"/i.exec(mail.html)?.[1] ?? null;
}
