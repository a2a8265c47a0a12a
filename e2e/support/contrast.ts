import type { Page } from '@playwright/test';

/** One pair of colours below its WCAG 2.2 AA minimum, with what a reader needs to find it. */
export interface ContrastFinding {
  /** text, placeholder, control or focus ring */
  readonly kind: string;
  /** The element: tag, id or class, and the start of its text. */
  readonly element: string;
  readonly ratio: number;
  readonly needed: number;
  readonly foreground: string;
  readonly background: string;
}

/** WCAG 2.2 AA: 4.5:1 for text (also large text, stricter than needed), 3:1 for controls and focus rings. */
export const TEXT_MINIMUM = 4.5;
export const NON_TEXT_MINIMUM = 3;

/**
 * Reads the computed colours of every visible text, placeholder and control on the page and compares
 * each with the background it is painted on (the nearest opaque background up the tree, with the
 * semi-transparent layers between composed onto it). Text that reaches the page itself would sit on
 * the artwork, which has no single colour: that is reported as a finding too.
 */
export async function colourFindings(page: Page): Promise<ContrastFinding[]> {
  return page.evaluate(
    ([textMinimum, nonTextMinimum]) => {
      type Rgba = readonly [number, number, number, number];
      const parse = (value: string): Rgba | null => {
        const match = /rgba?\(([^)]+)\)/.exec(value);
        if (!match?.[1]) return null;
        const [r = 0, g = 0, b = 0, a = 1] = match[1]
          .split(/[\s,/]+/)
          .filter(Boolean)
          .map((part) => (part.endsWith('%') ? Number.parseFloat(part) / 100 : Number(part)));
        return [r, g, b, a];
      };
      const over = (top: Rgba, bottom: Rgba): Rgba => {
        const a = top[3];
        return [
          top[0] * a + bottom[0] * (1 - a),
          top[1] * a + bottom[1] * (1 - a),
          top[2] * a + bottom[2] * (1 - a),
          1,
        ];
      };
      const luminance = ([r, g, b]: Rgba): number => {
        const [lr, lg, lb] = [r, g, b].map((channel) => {
          const c = channel / 255;
          return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        }) as [number, number, number];
        return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
      };
      const ratioOf = (a: Rgba, b: Rgba): number => {
        const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
        return (light + 0.05) / (dark + 0.05);
      };
      const css = ([r, g, b]: Rgba): string => `rgb(${Math.round(r)} ${Math.round(g)} ${Math.round(b)})`;
      /** The colour behind `element`'s own box, or null when only the page (the artwork) is behind it. */
      const backdrop = (element: Element | null): Rgba | null => {
        const layers: Rgba[] = [];
        for (let node = element; node && node !== document.body; node = node.parentElement) {
          const colour = parse(getComputedStyle(node).backgroundColor);
          if (colour && colour[3] > 0) {
            layers.push(colour);
            if (colour[3] >= 1)
              return layers.reduceRight<Rgba | null>(
                (under, layer) => (under ? over(layer, under) : layer),
                null,
              );
          }
        }
        return null;
      };
      const opacity = (element: Element): number => {
        let product = 1;
        for (let node: Element | null = element; node; node = node.parentElement) {
          product *= Number(getComputedStyle(node).opacity);
        }
        return product;
      };
      const describe = (element: Element): string => {
        const id = element.id ? `#${element.id}` : '';
        const className =
          typeof element.className === 'string' && element.className
            ? `.${element.className.split(' ')[0]}`
            : '';
        const text = (element.textContent ?? '').trim().slice(0, 40);
        return `${element.tagName.toLowerCase()}${id}${className} "${text}"`;
      };
      const shown = (element: Element): boolean => {
        const rect = element.getBoundingClientRect();
        return (
          rect.width > 1 &&
          rect.height > 1 &&
          element.checkVisibility({ visibilityProperty: true, opacityProperty: true })
        );
      };

      const findings: {
        kind: string;
        element: string;
        ratio: number;
        needed: number;
        foreground: string;
        background: string;
      }[] = [];
      const check = (
        kind: string,
        element: Element,
        colour: Rgba | null,
        behind: Rgba | null,
        needed: number,
      ) => {
        if (!colour) return;
        if (!behind) {
          findings.push({
            kind,
            element: describe(element),
            ratio: 0,
            needed,
            foreground: css(colour),
            background: 'the artwork',
          });
          return;
        }
        const painted = over([colour[0], colour[1], colour[2], colour[3] * opacity(element)], behind);
        const ratio = ratioOf(painted, behind);
        if (ratio < needed) {
          findings.push({
            kind,
            element: describe(element),
            ratio: Math.round(ratio * 100) / 100,
            needed,
            foreground: css(painted),
            background: css(behind),
          });
        }
      };

      for (const element of document.body.querySelectorAll('*')) {
        if (!shown(element) || element.closest('[aria-hidden="true"]')) continue;
        const style = getComputedStyle(element);
        const ownText = [...element.childNodes].some(
          (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
        );
        if (ownText) check('text', element, parse(style.color), backdrop(element), textMinimum);

        if (element instanceof HTMLInputElement && element.type !== 'hidden') {
          if (element.value === '' && element.placeholder) {
            check(
              'placeholder',
              element,
              parse(getComputedStyle(element, '::placeholder').color),
              backdrop(element),
              textMinimum,
            );
          }
          // The field's edge against what surrounds it (WCAG 1.4.11).
          check(
            'control',
            element,
            parse(style.borderTopColor),
            backdrop(element.parentElement),
            nonTextMinimum,
          );
        }
        if (element instanceof HTMLButtonElement) {
          const fill = parse(style.backgroundColor);
          const border = Number.parseFloat(style.borderTopWidth) > 0 ? parse(style.borderTopColor) : null;
          const around = backdrop(element.parentElement);
          if (fill && fill[3] > 0) {
            // A filled button: its fill or its border must stand out from what surrounds it.
            const edge = border ?? fill;
            const fillRatio = around ? ratioOf(over(fill, around), around) : 0;
            if (fillRatio < nonTextMinimum) check('control', element, edge, around, nonTextMinimum);
          } else if (border) {
            check('control', element, border, around, nonTextMinimum);
          } else if ((element.textContent ?? '').trim() === '') {
            // An icon-only button (the password toggle) is its icon.
            check('control', element, parse(style.color), backdrop(element), nonTextMinimum);
          }
        }
      }
      return findings;
    },
    [TEXT_MINIMUM, NON_TEXT_MINIMUM] as const,
  );
}

/**
 * Moves through every control with Tab (at most `limit` stops) and reports each focus ring below
 * 3:1 against the colour around the focused element; a control without a visible ring is a finding.
 */
export async function focusRingFindings(
  page: Page,
  limit = 40,
): Promise<{ stops: number; findings: ContrastFinding[] }> {
  const findings: ContrastFinding[] = [];
  const seen = new Set<string>();
  let stops = 0;
  for (let step = 0; step < limit; step++) {
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return null;
      const parse = (value: string): number[] | null => {
        const match = /rgba?\(([^)]+)\)/.exec(value);
        return match?.[1]
          ? match[1]
              .split(/[\s,/]+/)
              .filter(Boolean)
              .map(Number)
          : null;
      };
      const backdrop = (start: Element | null): number[] | null => {
        for (let node = start; node && node !== document.body; node = node.parentElement) {
          const colour = parse(getComputedStyle(node).backgroundColor);
          if (colour && (colour[3] ?? 1) >= 1) return colour;
        }
        return null;
      };
      const style = getComputedStyle(element);
      const key = `${element.tagName}#${element.id}|${(element.textContent ?? '').trim().slice(0, 30)}|${element.getAttribute('aria-label') ?? ''}`;
      return {
        key,
        element: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? element.getAttribute('aria-label') ?? '').trim().slice(0, 40)}"`,
        visible: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
        ring: parse(style.outlineColor),
        around: backdrop(element.parentElement),
      };
    });
    if (!ring) continue;
    if (seen.has(ring.key)) break;
    seen.add(ring.key);
    stops += 1;
    const [r = 0, g = 0, b = 0] = ring.ring ?? [];
    const [br = 0, bg = 0, bb = 0] = ring.around ?? [];
    const ratio = ring.ring && ring.around ? contrastRatio([r, g, b], [br, bg, bb]) : 0;
    if (!ring.visible || ratio < NON_TEXT_MINIMUM) {
      findings.push({
        kind: ring.visible ? 'focus ring' : 'focus ring missing',
        element: ring.element,
        ratio: Math.round(ratio * 100) / 100,
        needed: NON_TEXT_MINIMUM,
        foreground: `rgb(${r} ${g} ${b})`,
        background: ring.around ? `rgb(${br} ${bg} ${bb})` : 'the artwork',
      });
    }
  }
  return { stops, findings };
}

/** WCAG 2 contrast ratio of two sRGB colours (0–255 channels). */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const luminance = (rgb: readonly number[]): number => {
    const [r = 0, g = 0, bl = 0] = rgb.map((channel) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
