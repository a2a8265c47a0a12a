/**
 * SPEC §2: "Tab order indices are used on the forms." Each step numbers its controls in visual order.
 * Positive indices come before every tabindex-0 element of the page; on this page that is only the
 * footer, which sits after the form, so the keyboard order still equals the visual order.
 * The read-only e-mail of step 2 is shown, not edited, so it is left out of the order. The
 * forgot-password link beside the password field comes after the field's toggle, before Login.
 */
export const EMAIL_STEP_TAB = { email: 1, next: 2 } as const;

export const PASSWORD_STEP_TAB = { back: 1, password: 2, toggle: 3, forgot: 4, login: 5 } as const;
