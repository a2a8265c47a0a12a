import { firstSupportedLanguage, siteTextsFor, usableLoginHint } from '@keycard/contract';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { findAccountById } from '../accounts/account-repository.ts';
import type { Config } from '../config.ts';
import { signInPagePath } from '../redirects/redirect-rules.ts';
import type { Db } from '../store/database.ts';

type Interaction = InstanceType<Provider['Interaction']>;

/**
 * The client's product name; for a client without one, the product's own name (SITE_FILE). It is a
 * ReturnUrl parameter (SPEC §3), not shown text, so it takes the English value of a per-language name.
 */
function productNameOf(ctx: KoaContextWithOIDC, config: Config): string {
  const name = ctx.oidc.client?.metadata().product_name;
  if (typeof name === 'string' && name !== '') return name;
  const site = siteTextsFor(config.site, 'en');
  return `${site.productNamePart1}${site.productNamePart2}`;
}

function stringParam(interaction: Interaction, name: string): string | undefined {
  const value = interaction.params[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The e-mail to prefill: the request's `login_hint`, else, when the person must sign in again
 * (`prompt=login`, `max_age` passed) on a session of theirs, the session's own address — read from
 * the database, never from the browser.
 */
async function loginHintOf(interaction: Interaction, db: Db): Promise<string | null> {
  const hint = usableLoginHint(stringParam(interaction, 'login_hint'));
  if (hint !== null) return hint;
  const accountId = interaction.session?.accountId;
  if (!accountId) return null;
  const account = await findAccountById(db, accountId);
  return account && !account.disabledAt ? account.email : null;
}

/**
 * The interaction URL is the SPA's sign-in page; its ReturnUrl is the provider's local resume path
 * carrying the client's product name (DESIGN §1), and the request's hints for the page: `login_hint`
 * (the e-mail to start with) and `ui_locales` (as the first language the texts are written in). The
 * resume endpoint ignores the parameters.
 */
export function interactionUrl(config: Config, db: Db) {
  return async (ctx: KoaContextWithOIDC, interaction: Interaction): Promise<string> => {
    const resume = new URL(interaction.returnTo);
    const query = new URLSearchParams({ product: productNameOf(ctx, config) });
    const loginHint = await loginHintOf(interaction, db);
    if (loginHint !== null) query.set('login_hint', loginHint);
    const language = firstSupportedLanguage(stringParam(interaction, 'ui_locales'));
    if (language !== null) query.set('ui_locales', language);
    resume.search = query.toString();
    return signInPagePath(resume.pathname + resume.search);
  };
}

/** The resume path of interactionUrl's ReturnUrl without the `login_hint` it may carry. */
export function withoutLoginHint(resumePath: string): string {
  const url = new URL(resumePath, 'http://resume.invalid');
  url.searchParams.delete('login_hint');
  return url.pathname + url.search;
}
