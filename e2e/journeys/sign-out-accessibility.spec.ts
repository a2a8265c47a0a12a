import { LOGOUT_REDIRECT_DELAY_MS, THEMES } from '@keycard/contract';
import { DemoPage } from '../pages/demo-page.ts';
import { DoneState } from '../pages/done-state.ts';
import { LogoutPage } from '../pages/logout-page.ts';
import { axeViolations } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';

/** What the init script below adds to the page's window. */
interface HeldTimers {
  keycardHeldTimers(): number;
  keycardReleaseTimers(): void;
}

test.describe('axe-core finds no violations on the logout page of a real sign-out', () => {
  for (const theme of THEMES) {
    // One theme with prefers-reduced-motion: the countdown's bar is not drawn there, the seconds stay.
    const reducedMotion = theme === 'dark' ? 'reduce' : 'no-preference';
    test.describe(`${theme} theme, reduced motion: ${reducedMotion}`, () => {
      test.use({ theme, reducedMotion });

      test('after the goodbye, before the redirect', async ({ page, texts, demoAccount }) => {
        const demo = new DemoPage(page);
        const signIn = await demo.startSignIn();
        await signIn.signIn(texts, demoAccount.email, demoAccount.password);
        await expect(demo.signOutLink(texts)).toBeVisible();

        // The page must stay put while axe runs, however slow the browser: the logout page's redirect
        // timer (and only a timer of that delay) is held until the analysis is done. Holding the
        // redirect's request instead left the page mid-navigation, where axe's evaluate never returned.
        await page.addInitScript((delay) => {
          const held: (() => void)[] = [];
          const original = window.setTimeout.bind(window);
          const holding = ((handler: TimerHandler, timeout?: number, ...args: unknown[]) => {
            if (timeout !== delay || typeof handler !== 'function')
              return original(handler, timeout, ...args);
            held.push(() => handler(...args));
            return 0;
          }) as typeof window.setTimeout;
          window.setTimeout = holding;
          const controls: HeldTimers = {
            keycardHeldTimers: () => held.length,
            keycardReleaseTimers: () => {
              for (const run of held.splice(0)) run();
            },
          };
          Object.assign(window, controls);
        }, LOGOUT_REDIRECT_DELAY_MS);

        await demo.signOutLink(texts).click();
        const logout = new LogoutPage(page);
        await expect(logout.greeting(texts, demoAccount.name)).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        // The redirect is waiting with exactly its delay.
        await expect
          .poll(() => page.evaluate(() => (window as unknown as HeldTimers).keycardHeldTimers()))
          .toBe(1);
        // The done state: "Signed out" focused, the way on now and the 3 s counted down, said once.
        const done = new DoneState(page);
        await done.expectShown(texts, texts.logoff, 3);
        if (reducedMotion === 'reduce') await expect(done.progress).toHaveCSS('display', 'none');
        else await expect(done.progress).toHaveCSS('animation-name', 'done-state-countdown');
        expect(await axeViolations(page)).toEqual([]);
        // Still on the logout page: nothing left it while axe ran.
        expect(new URL(page.url()).pathname).toMatch(/^\/logout\/?$/i);

        // The button goes on at once, with the delay's timer still held: not by the timer.
        await done.continueButton(texts).click();
        await expect(page).toHaveURL((url) => demo.isAt(url));
        await expect(demo.signedOutStatus(texts)).toBeVisible();
      });
    });
  }
});
