import type { PageKind, TextResource, Theme } from '@keycard/contract';
import { expect, type Locator, type Page } from '@playwright/test';
import { FooterDialogs } from './footer-dialogs.ts';

/** Text keys of the screen's h1; a screen whose heading depends on state names the one it opens with. */
export type HeadingKey = keyof TextResource;

/**
 * What every screen shares (the page frame of the shell): the element carrying the page kind and
 * background, the theme and language on <html>, the h1 and the footer with its dialogs.
 * Screen page objects extend this with their own path, page kind, heading and controls.
 */
export abstract class PageFrame {
  /** The frame root: `data-page-kind` and `data-background` live here. */
  readonly frame: Locator;
  readonly heading: Locator;
  readonly footer: FooterDialogs;

  /** Page kind of SPEC §3 the screen opens with. */
  abstract readonly pageKind: PageKind;
  /** Text key of the h1 the screen opens with. */
  abstract readonly headingKey: HeadingKey;

  constructor(
    readonly page: Page,
    /** Path (and query) the screen is opened at. */
    readonly path: string,
  ) {
    this.frame = page.locator('[data-page-kind]');
    this.heading = page.getByRole('heading', { level: 1 });
    this.footer = new FooterDialogs(page);
  }

  /** Opens the screen at its path (or another one that routes to it) and waits for the frame. */
  async open(path: string = this.path): Promise<void> {
    await this.page.goto(path);
    await expect(this.frame).toBeVisible();
  }

  /** The heading text the resource defines for this screen, placeholders filled where needed. */
  expectedHeading(texts: TextResource): string {
    return texts[this.headingKey];
  }

  async currentPageKind(): Promise<string | null> {
    return this.frame.getAttribute('data-page-kind');
  }

  async background(): Promise<string> {
    const background = await this.frame.getAttribute('data-background');
    if (!background) throw new Error('the page frame names no background image');
    return background;
  }

  async theme(): Promise<Theme | string | null> {
    return this.page.locator('html').getAttribute('data-theme');
  }

  async language(): Promise<string | null> {
    return this.page.locator('html').getAttribute('lang');
  }
}
