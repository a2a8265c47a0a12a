import '../../test-support/dom.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  json,
  localUser,
  pageKind,
  QUERY,
  RETURN_URL,
  reachPasswordStep,
  renderSignIn,
  stubLocationAssign,
  stubService,
  wrongPassword,
} from './sign-in-test-kit.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SignInScreen steps (SPEC §2/§4)', () => {
  it("welcomes to the product's own name, as the text resource spells it, when the ReturnUrl names none", () => {
    renderSignIn('/?ReturnUrl=%2Foidc%2Fauth%2Fuid-1', {
      productNamePart1: 'Guest',
      productNamePart2: 'Gate',
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('loginWelcome GuestGate');
  });

  it('opens on the e-mail step, welcoming the ReturnUrl product, with the forgot-password link in the footer', () => {
    const { container } = renderSignIn();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('loginWelcome Planner');
    expect(pageKind(container)).toBe('unknownUser');
    const email = screen.getByRole('textbox', { name: 'emailLabel' });
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('autocomplete')).toBe('username');
    expect(email.getAttribute('placeholder')).toBe('emailPlaceholder');
    expect((email as HTMLInputElement).required).toBe(true);
    expect(screen.getByRole('button', { name: 'nextLabel' })).toBeTruthy();
    const footerLink = within(screen.getByRole('contentinfo')).getByRole('link', {
      name: 'forgotPasswordLabel',
    });
    expect(footerLink.getAttribute('href')).toBe(`/forgotPassword${QUERY}`);
  });

  it('submits the e-mail with Enter, calls CheckUsername and focuses the password of step 2', async () => {
    const service = stubService({ '/api/CheckUsername': () => json(localUser) });
    const { user } = renderSignIn();
    const password = await reachPasswordStep(user);
    expect(service.bodiesOf('/api/CheckUsername')).toEqual([
      { Username: 'ada@example.test', ReturnUrl: RETURN_URL },
    ]);
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(password.getAttribute('type')).toBe('password');
    expect(password.getAttribute('autocomplete')).toBe('current-password');
    expect(password.getAttribute('placeholder')).toBe('passwordPlaceholder');
    const shownEmail = screen.getByRole('textbox', { name: 'accountCaption' }) as HTMLInputElement;
    expect([shownEmail.value, shownEmail.readOnly, shownEmail.autocomplete]).toEqual([
      'ada@example.test',
      true,
      'username',
    ]);
    expect(screen.getByRole('button', { name: 'loginLabel' })).toBeTruthy();
  });

  it('sends one CheckUsername while it is in flight, however often Next or Enter is pressed', async () => {
    let answer: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const service = stubService({ '/api/CheckUsername': () => pending });
    const { user } = renderSignIn();
    await user.type(screen.getByRole('textbox', { name: 'emailLabel' }), 'ada@example.test{Enter}{Enter}');
    const next = screen.getByRole('button', { name: 'nextLabel' }) as HTMLButtonElement;
    next.closest('form')?.requestSubmit();
    await user.click(next);
    answer(json(localUser));
    await screen.findByLabelText('passwordLabel');
    expect(service.bodiesOf('/api/CheckUsername')).toHaveLength(1);
  });

  it('keeps the e-mail read-only while CheckUsername runs and signs in with the address it checked', async () => {
    let answer: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const service = stubService({
      '/api/CheckUsername': () => pending,
      '/api/login': () => json(wrongPassword),
    });
    const { user } = renderSignIn();
    const email = screen.getByRole('textbox', { name: 'emailLabel' }) as HTMLInputElement;
    await user.type(email, 'ada@example.test{Enter}');
    await waitFor(() => expect(email.readOnly).toBe(true));
    expect(document.activeElement).toBe(email);
    await user.type(email, 'x');
    expect(email.value).toBe('ada@example.test');
    // A password manager's autofill can write into a read-only field all the same.
    fireEvent.change(email, { target: { value: 'bob@federated.test' } });

    answer(json(localUser));
    await user.type(await screen.findByLabelText('passwordLabel'), 'Secret-Pass-1{Enter}');
    await screen.findByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    expect((screen.getByRole('textbox', { name: 'accountCaption' }) as HTMLInputElement).value).toBe(
      'ada@example.test',
    );
    expect(service.bodiesOf('/api/CheckUsername')).toEqual([
      { Username: 'ada@example.test', ReturnUrl: RETURN_URL },
    ]);
    expect(service.bodiesOf('/api/login')).toEqual([
      { Username: 'ada@example.test', Password: 'Secret-Pass-1', ReturnUrl: RETURN_URL },
    ]);
  });

  it('sends ReturnUrl "" when the query string holds an ampersand (SPEC §3 quirk)', async () => {
    const service = stubService({ '/api/CheckUsername': () => json(localUser) });
    const { user } = renderSignIn('/?ReturnUrl=%2Fx&other=1');
    await reachPasswordStep(user);
    expect(service.bodiesOf('/api/CheckUsername')).toEqual([{ Username: 'ada@example.test', ReturnUrl: '' }]);
  });

  it('hands an external-provider address over with returnUrl, provider GUID and login_hint', async () => {
    const guid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    stubService({
      '/api/CheckUsername': () =>
        json({
          userHasExternalIdentityProvider: true,
          returnUrl: RETURN_URL,
          externalIdentityProviderGuid: guid,
        }),
    });
    const assign = stubLocationAssign();
    const { user } = renderSignIn();
    await user.type(screen.getByLabelText('emailLabel'), 'ada+x@corp.example{Enter}');
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    expect(assign).toHaveBeenCalledWith(
      '/api/RedirectToExternalIdentityProvider?returnUrl=%2Foidc%2Fauth%2Fuid-1%3Fproduct%3DPlanner' +
        `&externalIdentityProviderGuid=${guid}&login_hint=ada%2Bx%40corp.example`,
    );
    expect(screen.queryByLabelText('passwordLabel')).toBeNull();
  });

  it('shows the password step when CheckUsername fails', async () => {
    stubService({ '/api/CheckUsername': () => json({ code: 'internal_error', message: 'boom' }, 500) });
    const { user } = renderSignIn();
    expect(await reachPasswordStep(user)).toBeTruthy();
  });

  it('goes back to step 1 with the e-mail focused, clearing the wrong-password flag and the password', async () => {
    stubService({ '/api/CheckUsername': () => json(localUser), '/api/login': () => json(wrongPassword) });
    const { user, container } = renderSignIn();
    await user.type(await reachPasswordStep(user), 'wrong-one{Enter}');
    await screen.findByRole('heading', { name: 'wrongPasswordOrUnknownUser' });
    await user.type(screen.getByLabelText('passwordLabel'), 'half-typed');

    await user.click(screen.getByRole('button', { name: 'backLabel' }));
    const email = screen.getByRole('textbox', { name: 'emailLabel' }) as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(email.readOnly).toBe(false);
    expect(email.value).toBe('ada@example.test');
    expect(screen.queryByRole('heading', { name: 'wrongPasswordOrUnknownUser' })).toBeNull();
    expect(pageKind(container)).toBe('unknownUser');

    await user.type(email, '{Enter}');
    expect(((await screen.findByLabelText('passwordLabel')) as HTMLInputElement).value).toBe('');
  });

  it('accepts a pasted password', async () => {
    stubService({ '/api/CheckUsername': () => json(localUser) });
    const { user } = renderSignIn();
    const password = (await reachPasswordStep(user)) as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(password));
    await user.paste('pasted-Secret-1!');
    expect(password.value).toBe('pasted-Secret-1!');
  });
});
