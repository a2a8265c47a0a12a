import { escapeHtml, linkifiedHtml } from '../html.ts';
import type { MailboxEntry } from './mailbox-view.ts';

/**
 * Pages of the development mailbox: escaped throughout (message values come from users), styled
 * only by /dev/mail.css, no script, so the service's CSP applies unchanged.
 */

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/dev/mail.css"></head>
<body><main>
${body}
</main></body>
</html>
`;
}

function link(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}" rel="noreferrer">${escapeHtml(text)}</a>`;
}

function time(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace('T', ' ').slice(0, 19))} UTC</time>`;
}

function row(entry: MailboxEntry): string {
  const links = entry.links.map((href) => link(href, href)).join('<br>');
  return `<tr><td>${time(entry.createdAt)}</td><td>${escapeHtml(entry.to)}</td><td>${link(`/dev/mail/${entry.id}`, entry.subject)}</td><td>${entry.status}</td><td class="links">${links}</td></tr>`;
}

export function mailboxListPage(entries: readonly MailboxEntry[]): string {
  const table =
    entries.length === 0
      ? '<p>No mail yet.</p>'
      : `<table>
<thead><tr><th scope="col">Time</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Links</th></tr></thead>
<tbody>
${entries.map(row).join('\n')}
</tbody>
</table>`;
  return page(
    'Dev mailbox',
    `<h1>Dev mailbox</h1>
<p>Mail of this development instance, newest first (${link('/dev/mail.json', 'JSON')}).</p>
${table}`,
  );
}

/** One message: its plain-text part with links as anchors (its HTML part is not rendered here). */
export function mailboxMessagePage(entry: MailboxEntry): string {
  const facts: [string, string][] = [
    ['To', escapeHtml(entry.to)],
    ['Subject', escapeHtml(entry.subject)],
    ['Time', time(entry.createdAt)],
    ['Status', `${entry.status} (${entry.attempts} failed attempts)`],
  ];
  if (entry.lastError !== null) facts.push(['Last error', escapeHtml(entry.lastError)]);
  return page(
    entry.subject,
    `<p>${link('/dev/mail', 'All mail')}</p>
<h1>${escapeHtml(entry.subject)}</h1>
<dl>
${facts.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('\n')}
</dl>
<pre>${linkifiedHtml(entry.text)}</pre>`,
  );
}

export const MAILBOX_CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f3ee;color:#1f1b16}
main{max-width:72rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:12px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.4rem;border-bottom:1px solid #ddd}
.links,pre{word-break:break-all}pre{white-space:pre-wrap;background:#f6f3ee;padding:1rem;border-radius:8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dd{margin:0}
a{color:#7a3b12}a:focus-visible{outline:3px solid #1f1b16;outline-offset:2px}
`;
