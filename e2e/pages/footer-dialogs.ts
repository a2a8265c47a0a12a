import type { TextResource } from '@keycard/contract';
import { expect, type Locator, type Page } from '@playwright/test';

/** The three footer dialogs of SPEC §1, by the text key of their footer button. */
export const DIALOG_LABEL_KEYS = ['helpLabel', 'imprintLabel', 'dataPolicyLabel'] as const;
export type DialogLabelKey = (typeof DIALOG_LABEL_KEYS)[number];

/** Enough Tab presses to walk any screen's focus order once. */
const MAX_TABS = 60;

/** The footer of the shell and the dialogs its buttons open. */
export class FooterDialogs {
  readonly region: Locator;
  /** The dialog currently open; closed <dialog> elements are not rendered and not matched. */
  readonly openDialog: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('contentinfo');
    this.openDialog = page.getByRole('dialog');
  }

  button(texts: TextResource, key: DialogLabelKey): Locator {
    return this.region.getByRole('button', { name: texts[key], exact: true });
  }

  /** Moves focus with Tab only until it rests on `target`; fails if the focus order never reaches it. */
  async tabTo(target: Locator): Promise<void> {
    for (let presses = 0; presses < MAX_TABS; presses += 1) {
      await this.page.keyboard.press('Tab');
      if (await target.evaluate((element) => element === document.activeElement)) return;
    }
    throw new Error(`Tab never reached ${target}`);
  }

  /** Opens a dialog with the keyboard only: Tab to its footer button, then Enter. */
  async openByKeyboard(texts: TextResource, key: DialogLabelKey): Promise<Locator> {
    const opener = this.button(texts, key);
    await this.tabTo(opener);
    await this.page.keyboard.press('Enter');
    return this.settled();
  }

  /** Opens a dialog by clicking its footer button. */
  async open(texts: TextResource, key: DialogLabelKey): Promise<Locator> {
    await this.button(texts, key).click();
    return this.settled();
  }

  /** The open dialog once its content (the imprint and policy load on demand) replaced the loading status. */
  private async settled(): Promise<Locator> {
    await expect(this.openDialog).toBeVisible();
    await expect(this.openDialog.getByRole('status')).toHaveCount(0);
    return this.openDialog;
  }

  async closeByEscape(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await expect(this.openDialog).toHaveCount(0);
  }

  /** True when the element with focus is inside the open dialog. */
  async focusIsInsideDialog(): Promise<boolean> {
    return this.openDialog.evaluate((dialog) => dialog.contains(document.activeElement));
  }

  /**
   * Where focus rests: inside the open dialog, on the page behind it, or nowhere in the page (the
   * document body, which is where it is while the browser's own controls have it).
   */
  async focusPlace(): Promise<'dialog' | 'page' | 'browser'> {
    return this.openDialog.evaluate((dialog) => {
      const active = document.activeElement;
      if (dialog.contains(active)) return 'dialog';
      return active === null || active === document.body ? 'browser' : 'page';
    });
  }
}
