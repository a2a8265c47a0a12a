import { type TextResource, VerificationType } from '@keycard/contract';
import { expect, type Page } from '@playwright/test';
import { DemoPage } from '../pages/demo-page.ts';
import { LockedPage } from '../pages/locked-page.ts';
import { loginAnswer } from '../pages/sign-in-page.ts';
import { lockoutThreshold, wrongPasswordFor } from './accounts.ts';

/** Who signs in: the address they type, the name the relying party must show. */
interface Person {
  readonly email: string;
  readonly name: string;
}

/**
 * From the demo relying party, `password` is refused: the wrong-password header, no redirect. The
 * identifier's failure counter goes up by one (LOCKOUT_THRESHOLD is far away for one refusal).
 */
export async function expectPasswordRefused(
  page: Page,
  texts: TextResource,
  email: string,
  password: string,
): Promise<void> {
  const signIn = await new DemoPage(page).startSignIn();
  const answer = await loginAnswer(await signIn.signIn(texts, email, password));
  expect(answer).toMatchObject({ isAuthenticated: false, verificationType: VerificationType.None });
  await expect(signIn.alert).toHaveText(texts.wrongPasswordOrUnknownUser);
}

/** From the demo relying party, `password` signs `person` in: the relying party shows their claims. */
export async function expectSignedIn(
  page: Page,
  texts: TextResource,
  person: Person,
  password: string,
): Promise<void> {
  const demo = new DemoPage(page);
  const signIn = await demo.startSignIn();
  await signIn.signIn(texts, person.email, password);
  await expect(page).toHaveURL((url) => demo.isAt(url));
  await expect(demo.signedInStatus(texts, person.name)).toBeVisible();
  await expect(demo.claim('email')).toHaveText(person.email);
  await expect(demo.claim('name')).toHaveText(person.name);
}

/**
 * From the demo relying party, LOCKOUT_THRESHOLD wrong passwords in a row (DESIGN §2 Login): the last
 * one locks the identifier and lands on /locked; for an existing account the unlock mail is queued.
 */
export async function lockBySignIn(
  page: Page,
  texts: TextResource,
  email: string,
  password: string,
): Promise<LockedPage> {
  const signIn = await new DemoPage(page).startSignIn();
  const wrong = wrongPasswordFor(password);
  await signIn.submitEmail(texts, email);
  for (let failure = 1; failure < lockoutThreshold(); failure += 1) {
    const answer = await loginAnswer(await signIn.submitPassword(texts, wrong));
    expect(answer.verificationType, `failure ${failure}`).toBe(VerificationType.None);
    await expect(signIn.passwordField(texts)).toHaveValue('');
  }
  const last = await loginAnswer(await signIn.submitPassword(texts, wrong));
  expect(last.verificationType).toBe(VerificationType.LockedAfterTooManyFailedAttempts);
  const locked = new LockedPage(page);
  await expect(page).toHaveURL((url) => url.pathname.toLowerCase() === '/locked');
  await expect(locked.heading).toHaveText(texts.lockedAfterTooManyFailedAttempts);
  return locked;
}
