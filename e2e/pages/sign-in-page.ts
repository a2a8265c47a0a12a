import { fillText, PRODUCT_NAME, type TextResource } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { PageFrame } from './page-frame.ts';

/** SPEC §2 `/` with a ReturnUrl: the sign-in page; its background rotates unknownUser1–3. */
export class SignInPage extends PageFrame {
  readonly pageKind = 'unknownUser';
  readonly headingKey = 'loginWelcome';

  constructor(page: Page, path = '/?ReturnUrl=%2F') {
    super(page, path);
  }

  /** The welcome names the ReturnUrl's product, the product's own name by default (SPEC §3). */
  override expectedHeading(texts: TextResource, product: string = PRODUCT_NAME): string {
    return fillText(texts.loginWelcome, { product });
  }
}
