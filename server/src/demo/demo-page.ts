import { fillText, type TextResource } from '@keycard/contract';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface DemoPageInput {
  texts: TextResource;
  lang: string;
  claims: Record<string, unknown> | null;
}

/** The demo relying party's one page: signed out, or the signed-in user's ID-token claims. */
export function renderDemoPage({ texts, lang, claims }: DemoPageInput): string {
  const name = typeof claims?.name === 'string' ? claims.name : String(claims?.sub ?? '');
  const body = claims
    ? `<p class="status">${escapeHtml(fillText(texts.demoSignedInAs, { userName: name }))}</p>
  <h2>${escapeHtml(texts.demoClaims)}</h2>
  <table><tbody>${Object.entries(claims)
    .map(
      ([key, value]) =>
        `<tr><th scope="row">${escapeHtml(key)}</th><td>${escapeHtml(String(value))}</td></tr>`,
    )
    .join('')}</tbody></table>
  <p><a class="button" href="/demo/logout">${escapeHtml(texts.demoSignOut)}</a></p>`
    : `<p class="status">${escapeHtml(texts.demoSignedOut)}</p>
  <p><a class="button" href="/demo/login">${escapeHtml(texts.demoSignIn)}</a></p>`;
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(texts.demoTitle)}</title><link rel="stylesheet" href="/demo/demo.css"></head>
<body><main>
  <h1>${escapeHtml(texts.demoTitle)}</h1>
  <p>${escapeHtml(texts.demoIntro)}</p>
  ${body}
</main></body></html>`;
}

export const DEMO_CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f3ee;color:#1f1b16}
main{max-width:44rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002}
h1{margin-top:0}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ddd;word-break:break-all}
.button{display:inline-block;padding:.6rem 1.2rem;background:#7a3b12;color:#fff;border-radius:8px;text-decoration:none}
.button:focus-visible{outline:3px solid #1f1b16;outline-offset:2px}`;
