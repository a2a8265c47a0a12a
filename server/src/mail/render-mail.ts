import { fillText, type Language, type SiteTexts } from '@keycard/contract';
import { escapeHtml } from './html.ts';
import type { MailRequest } from './mail-kinds.ts';
import { de } from './texts/de.ts';
import { en } from './texts/en.ts';
import type { MailTexts } from './texts/mail-texts.ts';

/** Mail wording of every language Keycard speaks (DESIGN §2 Mail: German and English). */
export const MAIL_TEXTS: Readonly<Record<Language, MailTexts>> = { en, de };

/** One message ready for the outbox: subject, plain-text part and simple HTML part. */
export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

const CONTROL = /\p{Cc}/gu;

/** A value on one line: a line break in a display name must not forge paragraphs or headers. */
function oneLine(value: string): string {
  return value.replace(CONTROL, ' ').trim();
}

interface Parts {
  readonly lang: Language;
  readonly subject: string;
  readonly greeting: string;
  readonly intro: readonly string[];
  readonly outro: readonly string[];
  readonly footer: string;
  readonly linkHint: string;
  readonly action?: { readonly label: string; readonly link: string };
}

/** Fills every text of the kind; `fill` decides how values are encoded (raw for text, escaped for HTML). */
function partsOf(request: MailRequest, fill: (text: string) => string): Parts {
  const texts = MAIL_TEXTS[request.language];
  const kind = texts.kinds[request.kind];
  const link = 'link' in request.values ? request.values.link : undefined;
  return {
    lang: request.language,
    subject: fill(kind.subject),
    greeting: fill(texts.common.greeting),
    intro: kind.intro.map(fill),
    outro: kind.outro.map(fill),
    footer: fill(texts.common.footer),
    linkHint: fill(texts.common.linkHint),
    ...(link !== undefined && kind.action !== undefined
      ? { action: { label: fill(kind.action), link: oneLine(link) } }
      : {}),
  };
}

function placeholderValues(request: MailRequest, site: SiteTexts): Record<string, string> {
  const values: Record<string, string> = {
    product: `${site.productNamePart1}${site.productNamePart2}`,
    supportEmail: site.siteEmail,
  };
  for (const [name, value] of Object.entries(request.values)) {
    if (name !== 'link') values[name] = oneLine(String(value));
  }
  return values;
}

function textPart(parts: Parts): string {
  const blocks = [parts.greeting, ...parts.intro];
  if (parts.action) blocks.push(`${parts.action.label}:\n${parts.action.link}`);
  blocks.push(...parts.outro, `-- \n${parts.footer}`);
  return `${blocks.join('\n\n')}\n`;
}

const STYLE = {
  body: 'margin:0;padding:24px;background:#f6f3ee;color:#1f1b16;font:16px/1.5 Arial,Helvetica,sans-serif',
  card: 'max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px',
  button:
    'display:inline-block;padding:10px 20px;background:#7a3b12;color:#ffffff;text-decoration:none;border-radius:6px',
  small: 'font-size:14px',
  link: 'color:#7a3b12;word-break:break-all',
  footer: 'font-size:13px;color:#5c5349',
};

/** Simple HTML: inline styles only (mail clients drop style sheets), no images, nothing remote. */
function htmlPart(parts: Parts): string {
  const paragraphs = [parts.greeting, ...parts.intro].map((p) => `<p>${p}</p>`);
  if (parts.action) {
    const href = escapeHtml(parts.action.link);
    paragraphs.push(
      `<p><a href="${href}" style="${STYLE.button}">${parts.action.label}</a></p>`,
      `<p style="${STYLE.small}">${parts.linkHint}<br><a href="${href}" style="${STYLE.link}">${href}</a></p>`,
    );
  }
  paragraphs.push(...parts.outro.map((p) => `<p>${p}</p>`), `<p style="${STYLE.footer}">${parts.footer}</p>`);
  return `<!doctype html>
<html lang="${parts.lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${parts.subject}</title></head>
<body style="${STYLE.body}"><div style="${STYLE.card}">
${paragraphs.join('\n')}
</div></body>
</html>
`;
}

/**
 * Renders a request in its language. Every value is escaped in the HTML part; the link appears as
 * an anchor and printed in full, and in the text part on a line of its own.
 */
export function renderMail(request: MailRequest, site: SiteTexts): RenderedMail {
  const values = placeholderValues(request, site);
  const escaped = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, escapeHtml(value)]),
  );
  const text = partsOf(request, (template) => fillText(template, values));
  const html = partsOf(request, (template) => fillText(escapeHtml(template), escaped));
  return { subject: text.subject, text: textPart(text), html: htmlPart(html) };
}
