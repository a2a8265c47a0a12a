import '../../test-support/dom.ts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, localUser, renderSignIn, stubLocationAssign, stubService } from './sign-in-test-kit.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The sign-in page as the service links it: the resume path with product and hints, encoded whole. */
function pageWith(params: Record<string, string>) {
  const returnUrl = `/oidc/auth/uid-1?${new URLSearchParams({ product: 'Planner', ...params })}`;
  return { returnUrl, url: `/?ReturnUrl=${encodeURIComponent(returnUrl)}` };
}

function emailField(): HTMLInputElement {
  return screen.getByRole('textbox', { name: 'emailLabel' }) as HTMLInputElement;
}

describe('SignInScreen with a login_hint in the ReturnUrl', () => {
  it('goes on with a plausible address by itself: CheckUsername, then the password step, focused', async () => {
    const service = stubService({ '/api/CheckUsername': () => json(localUser) });
    const { returnUrl, url } = pageWith({ login_hint: 'ada@example.test' });
    renderSignIn(url);
    const password = await screen.findByLabelText('passwordLabel');
    expect(service.bodiesOf('/api/CheckUsername')).toEqual([
      { Username: 'ada@example.test', ReturnUrl: returnUrl },
    ]);
    await waitFor(() => expect(document.activeElement).toBe(password));
    const shownEmail = screen.getByRole('textbox', { name: 'accountCaption' }) as HTMLInputElement;
    expect([shownEmail.value, shownEmail.readOnly]).toEqual(['ada@example.test', true]);
  });

  it('keeps the way back: Back returns to the e-mail step with the hint, to change it', async () => {
    const service = stubService({ '/api/CheckUsername': () => json(localUser) });
    const { user } = renderSignIn(pageWith({ login_hint: 'ada@example.test' }).url);
    await screen.findByLabelText('passwordLabel');
    await user.click(screen.getByRole('button', { name: 'backLabel' }));
    await waitFor(() => expect(document.activeElement).toBe(emailField()));
    expect([emailField().value, emailField().readOnly]).toEqual(['ada@example.test', false]);

    await user.clear(emailField());
    await user.type(emailField(), 'grace@example.test{Enter}');
    await screen.findByLabelText('passwordLabel');
    expect(
      service.bodiesOf('/api/CheckUsername').map((body) => (body as { Username: string }).Username),
    ).toEqual(['ada@example.test', 'grace@example.test']);
  });

  it("hands a bound domain's address to the organisation's provider, as Next does", async () => {
    const guid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const { returnUrl, url } = pageWith({ login_hint: 'ada@corp.example' });
    stubService({
      '/api/CheckUsername': () =>
        json({ userHasExternalIdentityProvider: true, returnUrl, externalIdentityProviderGuid: guid }),
    });
    const assign = stubLocationAssign();
    renderSignIn(url);
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const target = new URL(String(assign.mock.calls[0]?.[0]), 'http://spa.test');
    expect(target.pathname).toBe('/api/RedirectToExternalIdentityProvider');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      returnUrl,
      externalIdentityProviderGuid: guid,
      login_hint: 'ada@corp.example',
    });
    expect(screen.queryByLabelText('passwordLabel')).toBeNull();
  });

  it('only prefills a hint that is no plausible address, and waits for Next', async () => {
    const service = stubService({ '/api/CheckUsername': () => json(localUser) });
    renderSignIn(pageWith({ login_hint: 'ada' }).url);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(emailField().value).toBe('ada');
    expect(service.requests).toEqual([]);
  });

  it("takes nothing from a query string with an '&' (SPEC §3: the ReturnUrl reader answers empty)", async () => {
    const service = stubService({ '/api/CheckUsername': () => json(localUser) });
    renderSignIn(`${pageWith({ login_hint: 'ada@example.test' }).url}&x=1`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(emailField().value).toBe('');
    expect(service.requests).toEqual([]);
  });

  it('starts empty without a hint', () => {
    stubService({});
    renderSignIn(pageWith({}).url);
    expect(emailField().value).toBe('');
  });
});
