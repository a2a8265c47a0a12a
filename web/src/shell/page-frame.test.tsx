import '../test-support/dom.ts';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithTexts } from '../test-support/texts.tsx';
import { PageFrame } from './page-frame.tsx';
import { ROTATION_INTERVAL_MS } from './use-background.ts';

function frameRoot(container: Element): HTMLElement {
  const root = container.querySelector<HTMLElement>('[data-page-kind]');
  if (!root) throw new Error('no frame root');
  return root;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('PageFrame', () => {
  it('exposes page kind, background and theme for end-to-end tests', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date(2026, 0, 15, 18, 0));
    const { container } = renderWithTexts(
      <PageFrame pageKind="expiredLink">
        <h1>heading</h1>
      </PageFrame>,
    );
    const root = frameRoot(container);
    expect(root.dataset.pageKind).toBe('expiredLink');
    expect(root.dataset.background).toBe('/images/background/light/1920/expiredLink.jpg');
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('shows the page kind of the route it is on unless the screen switches it', () => {
    const onLocked = renderWithTexts(
      <PageFrame>
        <h1>heading</h1>
      </PageFrame>,
      '/locked',
    );
    expect(frameRoot(onLocked.container).dataset.pageKind).toBe('userLockedAfterTooManyFailedAttempts');
    onLocked.unmount();

    const switched = renderWithTexts(
      <PageFrame pageKind="wrongPasswordUnknownUser">
        <h1>heading</h1>
      </PageFrame>,
      '/?ReturnUrl=%2Fresume',
    );
    expect(frameRoot(switched.container).dataset.pageKind).toBe('wrongPasswordUnknownUser');
  });

  it('has header, main and footer landmarks, the product name and the page content in main', () => {
    renderWithTexts(
      <PageFrame pageKind="unlock" footerLinks={<a href="/x">extra link</a>}>
        <h1>heading</h1>
      </PageFrame>,
    );
    expect(screen.getByRole('banner').textContent).toBe('Keycard');
    expect(screen.getByRole('main').querySelector('h1')?.textContent).toBe('heading');
    expect(screen.getByRole('contentinfo').textContent).toContain('extra link');
  });

  it('rotates the three sign-in images on the sign-in start page', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date(2026, 0, 15, 9, 0));
    const { container } = renderWithTexts(
      <PageFrame pageKind="unknownUser">
        <h1>heading</h1>
      </PageFrame>,
    );
    const root = frameRoot(container);
    const seen = [root.dataset.background];
    for (let step = 0; step < 3; step += 1) {
      await act(() => {
        vi.advanceTimersByTime(ROTATION_INTERVAL_MS);
      });
      seen.push(root.dataset.background);
    }
    expect(seen).toEqual([1, 2, 3, 1].map((n) => `/images/background/dark/1920/unknownUser${n}.jpg`));
    expect(container.querySelectorAll('.background img')).toHaveLength(3);
  });

  it('keeps the first sign-in image still under prefers-reduced-motion', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
    const { container } = renderWithTexts(
      <PageFrame pageKind="unknownUser">
        <h1>heading</h1>
      </PageFrame>,
    );
    await act(() => {
      vi.advanceTimersByTime(ROTATION_INTERVAL_MS * 2);
    });
    expect(frameRoot(container).dataset.background).toMatch(/unknownUser1\.jpg$/);
  });
});
