import { type CallResponse, postCalls } from '@keycard/contract';
import type { Page } from '@playwright/test';

/**
 * The service counts every unknown code against the client's address (DESIGN §2 Codes: 20 wrong codes
 * per 15 minutes per IP), and every browser of the suite comes from 127.0.0.1. Specs that open the
 * unlock and verify-new-email screens only to look at them (layout, contrast) answer those two calls
 * here, exactly as the service answers a made-up code, so they do not spend the budget the journeys
 * with real mailed codes run on.
 */
export async function answerMadeUpCodes(page: Page): Promise<void> {
  const unlock: CallResponse<'unlockUser'> = {
    success: false,
    userName: null,
    linkExpired: false,
    redirectUrl: null,
  };
  const verify: CallResponse<'verifyNewEmail'> = { success: false, userFirstName: null, redirectUrl: null };
  await page.route(`**${postCalls.unlockUser.path}`, (route) => route.fulfill({ json: unlock }));
  await page.route(`**${postCalls.verifyNewEmail.path}`, (route) => route.fulfill({ json: verify }));
}
