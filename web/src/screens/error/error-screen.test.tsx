import '../../test-support/dom.ts';
import { getCalls } from '@keycard/contract';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDIRECT_PATH } from '../../routing/link-targets.ts';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { ErrorScreen, wayBack } from './error-screen.tsx';

/** What follows the message on every error page: the way back, then the help contact of the site file. */
const WAY_BACK_AND_HELP =
  'goToStartPagehelpLabelhelpIntrousingPhone +49 30 1234567-0usingEmail help@keycard.test';

/**
 * Whether the SPA takes a click on the link over (preventDefault, as its own links do). The window
 * sees the click after React's handlers, and stops the page load jsdom cannot make.
 */
function spaTakesOver(link: HTMLElement): boolean {
  let taken = false;
  const watch = (event: Event) => {
    taken = event.defaultPrevented;
    event.preventDefault();
  };
  window.addEventListener('click', watch);
  try {
    fireEvent.click(link);
  } finally {
    window.removeEventListener('click', watch);
  }
  return taken;
}

describe('ErrorScreen (SPEC §2 /error)', () => {
  it('reads errorTitle as its heading and somethingWentWrong', () => {
    renderWithTexts(<ErrorScreen reference={null} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('errorTitle');
    expect(screen.getByText('somethingWentWrong')).toBeTruthy();
    expect(screen.queryByRole('code')).toBeNull();
  });

  it("shows a refused request's reference in the text resource's sentence, as selectable text", () => {
    renderWithTexts(<ErrorScreen reference="7K2M9QXD" />, '/error/7K2M9QXD');
    const main = screen.getByRole('main');
    const reference = screen.getByText('7K2M9QXD');
    expect(reference.tagName).toBe('CODE');
    expect(reference.closest('p')?.textContent).toBe('errorReference 7K2M9QXD');
    // In the page's reading order, right after the message, so it is read out with it.
    expect(main.textContent).toBe(`errorTitlesomethingWentWrongerrorReference 7K2M9QXD${WAY_BACK_AND_HELP}`);
  });

  it('shows the request id a trusted proxy gave as the reference too', () => {
    const proxied = '3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b';
    renderWithTexts(<ErrorScreen reference={proxied} />, `/error/${proxied}`);
    expect(screen.getByText(proxied).tagName).toBe('CODE');
  });

  it.each(['call-0800-123456', '7k2m9qxd', '7K2M9QX', 'ILOU1234'])(
    'shows no text a link could put there: %s',
    (reference) => {
      renderWithTexts(<ErrorScreen reference={reference} />);
      expect(screen.getByRole('main').textContent).toBe(`errorTitlesomethingWentWrong${WAY_BACK_AND_HELP}`);
    },
  );

  it('says the service is temporarily unavailable when sent for an outage, with the reference', () => {
    renderWithTexts(<ErrorScreen reference="7K2M9QXD" />, '/error/7K2M9QXD?reason=unavailable');
    expect(screen.getByRole('main').textContent).toBe(
      `errorTitlesomethingWentWrongtemporarilyUnavailableerrorReference 7K2M9QXD${WAY_BACK_AND_HELP}`,
    );
  });

  it("says how long to wait when the person's network sent too many requests, with the reference", () => {
    renderWithTexts(<ErrorScreen reference="7K2M9QXD" />, '/error/7K2M9QXD?reason=rate_limited&wait=42');
    expect(screen.getByRole('main').textContent).toBe(
      `errorTitlesomethingWentWrongtooManyRequests 42 secondserrorReference 7K2M9QXD${WAY_BACK_AND_HELP}`,
    );
  });

  it.each(['', '0', '-5', 'soon', '99999', '1e3'])(
    'waits the limit window of one minute when the wait given is no whole number of seconds: %j',
    (wait) => {
      renderWithTexts(<ErrorScreen reference={null} />, `/error?reason=rate_limited&wait=${wait}`);
      expect(screen.getByText('tooManyRequests 1 minute')).toBeTruthy();
    },
  );

  it('says nothing of an outage for any other reason', () => {
    renderWithTexts(<ErrorScreen reference={null} />, '/error?reason=other&wait=42');
    expect(screen.queryByText('temporarilyUnavailable')).toBeNull();
    expect(screen.queryByText('tooManyRequests 42 seconds')).toBeNull();
  });

  it('offers the help contact of the site file as phone and e-mail links, under a Help heading', () => {
    renderWithTexts(<ErrorScreen reference={null} />);
    const help = screen.getByRole('region', { name: 'helpLabel' });
    expect(help.querySelector('a[href="tel:+493012345670"]')?.textContent).toBe('+49 30 1234567-0');
    expect(help.querySelector('a[href="mailto:help@keycard.test"]')?.textContent).toBe('help@keycard.test');
  });

  it.each([
    [
      'a ReturnUrl: the sign-in page with the query',
      '?ReturnUrl=%2Foidc%2Fauth%3Fx',
      'goToLoginLabel',
      '/?ReturnUrl=%2Foidc%2Fauth%3Fx',
      false,
    ],
    [
      'a RedirectUrl: the application, by way of the service, which alone knows the allow-list',
      '?RedirectUrl=https%3A%2F%2Fplanner.example%2F',
      'backToApplication',
      `${window.location.origin}/api/DefaultRedirect?RedirectUrl=https%3A%2F%2Fplanner.example%2F`,
      false,
    ],
    [
      'a script RedirectUrl: the default redirect',
      '?RedirectUrl=javascript%3Aalert(1)',
      'goToStartPage',
      '/api/DefaultRedirect',
      true,
    ],
    ['neither: the default redirect', '', 'goToStartPage', '/api/DefaultRedirect', true],
  ])('leads back with %s', (_case, search, label, href, viaService) => {
    renderWithTexts(<ErrorScreen reference={null} />, `/error${search}`);
    expect(screen.getByRole('link', { name: label }).getAttribute('href')).toBe(href);
    expect(wayBack(search)).toEqual({ to: href, label, viaService });
  });

  it("names the service's call that answers with the default redirect", () => {
    expect(DEFAULT_REDIRECT_PATH).toBe(getCalls.defaultRedirect.path);
  });

  it('leaves the default redirect to the browser: a page load the service answers, not a screen of the SPA', () => {
    renderWithTexts(<ErrorScreen reference={null} />, '/error');
    expect(spaTakesOver(screen.getByRole('link', { name: 'goToStartPage' }))).toBe(false);
  });

  it('moves to a sign-in inside the SPA, without a page load', () => {
    renderWithTexts(<ErrorScreen reference={null} />, '/error?ReturnUrl=%2Foidc%2Fauth%3Fx');
    expect(spaTakesOver(screen.getByRole('link', { name: 'goToLoginLabel' }))).toBe(true);
  });

  it('puts the identity base before the default redirect when the SPA is served apart from the service', () => {
    expect(wayBack('', 'https://id.example/base/')).toEqual({
      to: 'https://id.example/base/api/DefaultRedirect',
      label: 'goToStartPage',
      viaService: true,
    });
  });
});
