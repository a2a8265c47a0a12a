/** Escapes text for HTML element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * http(s) URLs inside plain text; ends before whitespace, angle brackets and quotes. In escaped HTML
 * it matches a URL whole too (escapeHtml writes `&` as `&#38;`). PostgreSQL's regular expressions read
 * its source alike (outbox-repository.ts removes links with it).
 */
export const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;

/** Every http(s) URL of a plain text, in order. */
export function linksIn(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((match) => match[0]);
}

/**
 * Plain text as escaped HTML with its http(s) URLs as anchors (the dev mailbox shows a message this
 * way instead of its HTML part, which the CSP could not render safely anyway).
 */
export function linkifiedHtml(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0];
    html += escapeHtml(text.slice(last, match.index));
    html += `<a href="${escapeHtml(url)}" rel="noreferrer">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(text.slice(last));
}
