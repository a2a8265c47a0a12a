import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** One axe finding, reduced to what a reader needs to find and fix it. */
export interface AxeFinding {
  readonly rule: string;
  readonly impact: string | null | undefined;
  readonly help: string;
  readonly targets: readonly string[];
}

/**
 * Rules left out, each for a reason the specification gives. `tabindex` (a best practice, not a
 * WCAG criterion) flags positive tab indices, which SPEC §2 asks for: "Tab order indices are used
 * on the forms". The forms number their controls in visual order, and the dialog journeys check
 * that the keyboard still reaches everything.
 */
const RULES_OFF_BY_SPEC = ['tabindex'];

/**
 * Runs every other non-experimental axe-core rule (WCAG A/AA and best practices); returns the
 * violations. Legacy mode runs axe-core in the page alone: the default opens a second, blank page
 * for each scan to merge the results of cross-origin frames, which Keycard's pages do not have,
 * and that page cost more than the rules themselves (about 1 s of a 1.7 s scan on the CI machine).
 * Every rule still runs; `resultTypes` only spares axe-core listing each element that passed (or was
 * inapplicable, or incomplete), which nothing here reads: a scan took about 350 ms instead of 520.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    // First: options() replaces every option given before it, disabled rules included.
    .options({ resultTypes: ['violations'] })
    .disableRules(RULES_OFF_BY_SPEC)
    .analyze();
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
}
