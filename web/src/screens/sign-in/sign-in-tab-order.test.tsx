import '../../test-support/dom.ts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, localUser, reachPasswordStep, renderSignIn, stubService } from './sign-in-test-kit.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The elements Tab visits from the top of the page, `count` presses. */
async function tabWalk(user: ReturnType<typeof renderSignIn>['user'], count: number): Promise<Element[]> {
  (document.activeElement as HTMLElement | null)?.blur();
  const visited: Element[] = [];
  for (let press = 0; press < count; press += 1) {
    await user.tab();
    if (document.activeElement) visited.push(document.activeElement);
  }
  return visited;
}

describe('SignInScreen keyboard order (SPEC §2: tab order indices on the forms)', () => {
  it('numbers step 1 in visual order: e-mail, Next, then the rest of the page', async () => {
    const { user } = renderSignIn();
    const visited = await tabWalk(user, 3);
    expect(visited.slice(0, 2)).toEqual([
      screen.getByRole('textbox', { name: 'emailLabel' }),
      screen.getByRole('button', { name: 'nextLabel' }),
    ]);
    expect(visited[2]).toBe(screen.getByRole('link', { name: 'forgotPasswordLabel' }));
  });

  it('numbers step 2 in visual order: back, password, show/hide, forgot password, Login', async () => {
    stubService({ '/api/CheckUsername': () => json(localUser) });
    const { user } = renderSignIn();
    const password = await reachPasswordStep(user);
    const [besideField, inFooter] = screen.getAllByRole('link', { name: 'forgotPasswordLabel' });
    expect(await tabWalk(user, 6)).toEqual([
      screen.getByRole('button', { name: 'backLabel' }),
      password,
      screen.getByRole('button', { name: 'showPassword' }),
      besideField,
      screen.getByRole('button', { name: 'loginLabel' }),
      inFooter,
    ]);
  });
});
