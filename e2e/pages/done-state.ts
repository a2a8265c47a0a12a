import { fillText, type TextResource } from '@keycard/contract';
import { expect, type Locator, type Page } from '@playwright/test';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The state after a successful action (reset, unlock, confirmed e-mail, sign-out): a heading that
 * names what happened, SPEC §4's caption, a button to go on now and the countdown of SPEC §9's delay.
 */
export class DoneState {
  constructor(private readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('main').getByRole('heading', { level: 1 });
  }

  continueButton(texts: TextResource): Locator {
    return this.page.getByRole('main').getByRole('button', { name: texts.continueNow, exact: true });
  }

  /** The seconds left, shown (a timer: not read out at each tick). */
  get countdown(): Locator {
    return this.page.getByRole('main').getByRole('timer');
  }

  countdownText(texts: TextResource, seconds: number): string {
    return fillText(texts.redirectCountdown, { seconds });
  }

  /** The countdown's text with any number of seconds. */
  countdownPattern(texts: TextResource): RegExp {
    const [before = '', after = ''] = texts.redirectCountdown.split('{seconds}');
    return new RegExp(`^${escapeRegExp(before)}\\d+${escapeRegExp(after)}$`);
  }

  /** The polite live region that says the delay once. */
  get announcement(): Locator {
    return this.page.getByRole('main').locator('[aria-live="polite"]');
  }

  announcementText(texts: TextResource, seconds: number): string {
    return fillText(texts.redirectAnnouncement, { seconds });
  }

  /**
   * The done state as it appears: `heading` focused, the button to go on, the seconds left shown by
   * the timer, and the `seconds` of the whole delay said once by the polite live region.
   */
  async expectShown(texts: TextResource, heading: string, seconds: number): Promise<void> {
    await expect(this.heading).toHaveText(heading);
    await expect(this.heading).toBeFocused();
    await expect(this.continueButton(texts)).toBeVisible();
    await expect(this.countdown).toBeVisible();
    // The page's clock runs in real time: by now a second or more may have passed.
    await expect(this.countdown).toHaveText(this.countdownPattern(texts));
    await expect(this.announcement).toHaveAttribute('aria-live', 'polite');
    await expect(this.announcement).toHaveText(this.announcementText(texts, seconds));
  }

  /** The bar that empties over the delay; not drawn under prefers-reduced-motion. */
  get progress(): Locator {
    return this.page.getByRole('main').locator('.done-state__progress');
  }
}
