/**
 * SPEC §2: "Tab order indices are used on the forms." The reset form numbers its controls in visual
 * order; positive indices come before the page's tabindex-0 elements, which here all follow the
 * form (the footer), so the keyboard order stays the visual order.
 */
export const RESET_TAB = { newPassword: 1, newToggle: 2, confirm: 3, confirmToggle: 4, reset: 5 } as const;
