import { firstSupportedLanguage, type Language } from '@keycard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors, type Provider } from 'oidc-provider';
import type { SignInRecord } from '../accounts/account-repository.ts';
import { OIDC_MOUNT } from '../oidc/provider.ts';
import {
  boundLoginResult,
  type SignedInAccount,
  saveSignInResult,
  type UpstreamSignIn,
} from '../oidc/sign-in-result.ts';

const RESUME_PATH = new RegExp(`^${OIDC_MOUNT}/auth/([A-Za-z0-9_-]{1,64})(?:\\?|$)`);

export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * This browser's live sign-in interaction when `returnUrl` is its resume path, else null.
 * The interaction cookie proves the browser started it, so a ReturnUrl copied from elsewhere is refused.
 */
export async function liveInteraction(
  provider: Provider,
  returnUrl: string | null,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Interaction | null> {
  const uid = returnUrl === null ? undefined : RESUME_PATH.exec(returnUrl)?.[1];
  if (!uid) return null;
  try {
    const interaction = await provider.interactionDetails(request.raw, reply.raw);
    return interaction.uid === uid ? interaction : null;
  } catch (error) {
    // No interaction cookie, or the interaction is gone. Anything else (a database outage) is not an
    // expired sign-in and goes to the error handler (503).
    if (error instanceof errors.SessionNotFound) return null;
    throw error;
  }
}

/**
 * The language the relying party asked this sign-in to speak (`ui_locales`), when the texts are
 * written in it: read from the interaction the provider stored, not from what the browser sends.
 */
export function interactionLanguage(interaction: Interaction | null): Language | null {
  const uiLocales = interaction?.params.ui_locales;
  return firstSupportedLanguage(typeof uiLocales === 'string' ? uiLocales : null);
}

/**
 * Records who signed in on the interaction, as provider.interactionResult does, on the one already
 * loaded, with the sign-in's `record` in the same statement (oidc/sign-in-result.ts). `account` is the
 * row the sign-in read before it checked anything: the result is bound to its password, so a reset
 * meanwhile stops the resume (forgetOutdatedSignIn).
 */
export async function finishLogin(
  interaction: Interaction,
  account: SignedInAccount,
  amr: string[],
  record: SignInRecord,
  upstream?: UpstreamSignIn,
): Promise<void> {
  interaction.result = boundLoginResult(account, amr, upstream);
  await saveSignInResult(interaction, interaction.exp - Math.floor(Date.now() / 1000), record);
}
