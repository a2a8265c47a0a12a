import { backgroundPath, SIGN_IN_ROTATION, VerificationType } from '@keycard/contract';
import { DEMO_PRODUCT_NAME, DemoPage } from '../pages/demo-page.ts';
import { ForgotPasswordPage } from '../pages/forgot-password-page.ts';
import { LockedPage } from '../pages/locked-page.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { loginAnswer, SignInPage } from '../pages/sign-in-page.ts';
import { freshAccount, lockoutThreshold, wrongPasswordFor } from '../support/accounts.ts';
import { expirePassword, unlockUser } from '../support/admin.ts';
import { holdCalls, holdRequests } from '../support/calls.ts';
import { expect, test } from '../support/fixtures.ts';
import { tabUntilFocused } from '../support/keyboard.ts';

/** Every journey here starts at the demo relying party, so /api/login has a live interaction. */

test.describe('a failed sign-in (SPEC §4, §8)', () => {
  test('a wrong password shows the header, changes page kind and background and clears the field; Back clears the flag', async ({
    page,
    texts,
    theme,
    newAccount,
  }) => {
    const signIn = await new DemoPage(page).startSignIn();
    const signInUrl = page.url();
    const rotation = SIGN_IN_ROTATION.map((name) => backgroundPath(theme, name));
    const failedBackground = backgroundPath(theme, 'wrongPasswordUnknownUser');
    expect(rotation).toContain(await signIn.background());
    await expect(signIn.alert).toHaveText('');

    await signIn.submitEmail(texts, newAccount.email);
    const wrong = wrongPasswordFor(newAccount.password);
    const password = signIn.passwordField(texts);
    await password.fill(wrong);
    // The show/hide toggle reveals what was typed and hides it again.
    await expect(password).toHaveAttribute('type', 'password');
    await expect(signIn.showPasswordButton(texts)).toHaveAttribute('aria-pressed', 'false');
    await signIn.showPasswordButton(texts).click();
    await expect(signIn.showPasswordButton(texts)).toHaveAttribute('aria-pressed', 'true');
    await expect(password).toHaveAttribute('type', 'text');
    await expect(password).toHaveValue(wrong);
    await signIn.showPasswordButton(texts).click();
    await expect(signIn.showPasswordButton(texts)).toHaveAttribute('aria-pressed', 'false');
    await expect(password).toHaveAttribute('type', 'password');

    const answer = await loginAnswer(await signIn.submitPassword(texts, wrong));
    expect(answer).toMatchObject({ isAuthenticated: false, verificationType: VerificationType.None });
    await expect(signIn.alert).toHaveText(texts.wrongPasswordOrUnknownUser);
    await expect(signIn.frame).toHaveAttribute('data-page-kind', 'wrongPasswordUnknownUser');
    await expect(signIn.frame).toHaveAttribute('data-background', failedBackground);
    await expect(password).toHaveValue('');
    // Focus goes to the message, which also describes the emptied field.
    await expect(signIn.errorHeading(texts)).toBeFocused();
    await expect(password).toHaveAttribute('aria-describedby', 'sign-in-wrong-password');
    expect(page.url()).toBe(signInUrl);

    await signIn.backButton(texts).click();
    await expect(signIn.emailField(texts)).toBeEditable();
    await expect(signIn.emailField(texts)).toHaveValue(newAccount.email);
    await expect(signIn.alert).toHaveText('');
    await expect(signIn.frame).toHaveAttribute('data-page-kind', 'unknownUser');
    expect(rotation).toContain(await signIn.background());

    // The same sign-in goes on: the password starts empty and the right one gets through.
    await signIn.nextButton(texts).click();
    await expect(password).toHaveValue('');
    await signIn.submitPassword(texts, newAccount.password);
    const demo = new DemoPage(page);
    await expect(page).toHaveURL((url) => demo.isAt(url));
    await expect(demo.claim('email')).toHaveText(newAccount.email);
    await expect(demo.claim('name')).toHaveText(newAccount.name);
  });

  test('reaching the lockout threshold lands on /locked with the query kept; then even the right password does', async ({
    page,
    texts,
    newAccount,
  }) => {
    const signIn = await new DemoPage(page).startSignIn();
    const query = new URL(page.url()).search;
    expect(new URLSearchParams(query).get('ReturnUrl')).toBeTruthy();
    const atLocked = (url: URL) => url.pathname.toLowerCase() === '/locked' && url.search === query;
    const wrong = wrongPasswordFor(newAccount.password);
    const threshold = lockoutThreshold();

    await signIn.submitEmail(texts, newAccount.email);
    for (let failure = 1; failure < threshold; failure += 1) {
      const answer = await loginAnswer(await signIn.submitPassword(texts, wrong));
      expect(answer.verificationType, `failure ${failure}`).toBe(VerificationType.None);
      await expect(signIn.alert).toHaveText(texts.wrongPasswordOrUnknownUser);
      await expect(signIn.passwordField(texts)).toHaveValue('');
    }
    const last = await loginAnswer(await signIn.submitPassword(texts, wrong));
    expect(last.verificationType).toBe(VerificationType.LockedAfterTooManyFailedAttempts);

    const locked = new LockedPage(page);
    await expect(page).toHaveURL(atLocked);
    await expect(locked.frame).toHaveAttribute('data-page-kind', locked.pageKind);
    await expect(locked.heading).toHaveText(texts.lockedAfterTooManyFailedAttempts);
    // The button that had focus went with the sign-in page: the new page's heading takes it, so a
    // screen reader reads where the person is and the keyboard goes on from there.
    await expect(locked.heading).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(locked.forgotPasswordLink(texts)).toBeFocused();

    // Back to the sign-in page from the locked page's link: the right password is refused alike.
    await locked.loginLink(texts).click();
    await expect(signIn.frame).toHaveAttribute('data-page-kind', 'unknownUser');
    expect(new URL(page.url()).search).toBe(query);
    const refused = await loginAnswer(await signIn.signIn(texts, newAccount.email, newAccount.password));
    expect(refused).toMatchObject({
      isAuthenticated: false,
      verificationType: VerificationType.LockedAfterTooManyFailedAttempts,
    });
    await expect(page).toHaveURL(atLocked);
    await expect(locked.heading).toHaveText(texts.lockedAfterTooManyFailedAttempts);

    // Once an administrator unlocks it, the right password signs in.
    await unlockUser(newAccount.email);
    await locked.loginLink(texts).click();
    await signIn.signIn(texts, newAccount.email, newAccount.password);
    const demo = new DemoPage(page);
    await expect(page).toHaveURL((url) => demo.isAt(url));
    await expect(demo.claim('email')).toHaveText(newAccount.email);
  });

  test('an expired password goes to /ResetPassword/2/<code> keeping the query, after the right password only', async ({
    page,
    texts,
    newAccount,
  }) => {
    await expirePassword(newAccount.email);
    const signIn = await new DemoPage(page).startSignIn();
    const query = new URL(page.url()).search;

    await signIn.submitEmail(texts, newAccount.email);
    const wrong = await loginAnswer(
      await signIn.submitPassword(texts, wrongPasswordFor(newAccount.password)),
    );
    expect(wrong).toMatchObject({ verificationType: VerificationType.None, verificationCode: null });
    await expect(signIn.alert).toHaveText(texts.wrongPasswordOrUnknownUser);

    const expired = await loginAnswer(await signIn.submitPassword(texts, newAccount.password));
    expect(expired).toMatchObject({
      isAuthenticated: false,
      verificationType: VerificationType.PasswordExpired,
    });
    const code = expired.verificationCode ?? '';
    expect(code).not.toBe('');

    const reset = new ResetPasswordPage(page, VerificationType.PasswordExpired, code);
    await expect(page).toHaveURL(
      (url) => url.pathname === `/ResetPassword/2/${encodeURIComponent(code)}` && url.search === query,
    );
    await expect(reset.frame).toHaveAttribute('data-page-kind', reset.pageKind);
  });
});

test.describe('keyboard only (SPEC §2 tab order)', () => {
  test('from the relying party to the claims with Tab, typing and Enter alone', async ({
    page,
    texts,
    demoAccount,
  }) => {
    const demo = new DemoPage(page);
    await demo.open();
    await tabUntilFocused(page, demo.signInLink(texts));
    await page.keyboard.press('Enter');

    const signIn = new SignInPage(page);
    await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts, DEMO_PRODUCT_NAME));
    // The e-mail field has focus when the page opens; Enter in it submits step 1.
    await expect(signIn.emailField(texts)).toBeFocused();
    await page.keyboard.type(demoAccount.email);
    await page.keyboard.press('Enter');

    // Step 2 puts the focus in the password field; Tab goes on over the toggle and the
    // forgot-password link beside the field to Login.
    await expect(signIn.passwordField(texts)).toBeFocused();
    await page.keyboard.type(demoAccount.password);
    await page.keyboard.press('Tab');
    await expect(signIn.showPasswordButton(texts)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(signIn.forgotPasswordBesideField(texts)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(signIn.loginButton(texts)).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL((url) => demo.isAt(url));
    await expect(demo.signedInStatus(texts, demoAccount.name)).toBeVisible();
    await expect(demo.claim('email')).toHaveText(demoAccount.email);
  });
});

test.describe('an answer that comes after the person left the page', () => {
  test('a sign-in that succeeds after the forgot-password link was followed leaves the person on forgot password', async ({
    page,
    texts,
    newAccount,
  }) => {
    const signIn = await new DemoPage(page).startSignIn();
    const query = new URL(page.url()).search;
    await signIn.submitEmail(texts, newAccount.email);
    await signIn.passwordField(texts).fill(newAccount.password);
    // A slow network: the right password's login is on its way while the forgot-password page's
    // code, not loaded yet, takes its time too. Meanwhile the sign-in page is still on show.
    const login = await holdCalls(page, 'login');
    const screenCode = await holdRequests(page, (url) =>
      /\/forgot-password-screen-[^/]*\.js$/.test(url.pathname),
    );
    await signIn.loginButton(texts).click();
    await expect.poll(() => login.arrivals(), { message: 'the login, held' }).toBe(1);
    await signIn.forgotPasswordBesideField(texts).click();
    await expect
      .poll(() => screenCode.arrivals(), {
        message:
          "the forgot-password page's code (forgot-password-screen-*.js), loaded on the click and held",
      })
      .toBe(1);
    await expect(page).toHaveURL((url) => url.pathname === '/forgotPassword' && url.search === query);

    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/login');
    login.release();
    expect((await answered).status()).toBe(200);
    // The answer found the person gone: the sign-in page, on show until the next page's code is in,
    // takes submits again and moves no one.
    await expect(signIn.loginButton(texts)).toBeEnabled();
    screenCode.release();

    const forgot = new ForgotPasswordPage(page);
    await expect(forgot.heading).toHaveText(texts.forgotPassword);
    await expect(forgot.frame).toHaveAttribute('data-page-kind', forgot.pageKind);
    await expect(forgot.emailField(texts)).toBeEditable();
    expect(new URL(page.url()).pathname).toBe('/forgotPassword');
    expect(new URL(page.url()).search).toBe(query);
  });
});

test.describe('an address whose domain is not ASCII (DESIGN §2 identifiers)', () => {
  test('signs in typed with its umlaut, which the browser sends in IDNA ASCII form', async ({
    page,
    texts,
    adminApi,
  }, testInfo) => {
    const account = freshAccount(testInfo.title);
    const email = account.email.replace(/@.*$/, '@bücher.keycard.test');
    await adminApi('POST', '/users', { email, name: account.name, password: account.password });

    const demo = new DemoPage(page);
    const signIn = await demo.startSignIn();
    const sent = page.waitForRequest(
      (request) => new URL(request.url()).pathname.toLowerCase() === '/api/login',
    );
    await signIn.signIn(texts, email, account.password);
    // What the e-mail field gave the SPA: the domain as IDNA ASCII, not as typed.
    expect((await sent).postDataJSON().Username).toBe(email.replace('@bücher.', '@xn--bcher-kva.'));
    await expect(page).toHaveURL((url) => demo.isAt(url));
    await expect(demo.signedInStatus(texts, account.name)).toBeVisible();
    // The account's address as it was registered.
    await expect(demo.claim('email')).toHaveText(email);
  });
});
