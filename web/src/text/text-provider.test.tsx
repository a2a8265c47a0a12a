import '../test-support/dom.ts';
import { CSRF_HEADER, TEXT_KEYS } from '@keycard/contract';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api/api-client.ts';
import { retryDelayMs } from './start-up.ts';
import { TextProvider } from './text-provider.tsx';
import { useText } from './use-text.ts';

const texts = {
  ...Object.fromEntries(TEXT_KEYS.map((key) => [key, key])),
  loginWelcome: 'Welcome to {product}',
};

function Probe() {
  const { t } = useText();
  return <p>{t('loginWelcome', { product: 'Planner' })}</p>;
}

/** A fetch whose answers the test releases one by one. */
function deferredFetch() {
  const releases = new Map<string, (response: Response) => void>();
  const seen: string[] = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://spa.test').pathname;
    seen.push(`${path} ${new Headers(init?.headers).get(CSRF_HEADER) ?? '-'}`);
    return new Promise<Response>((resolve) => releases.set(path, resolve));
  });
  const release = async (path: string, response: Response) => {
    await act(async () => releases.get(path)?.(response));
  };
  return { fetch, seen, release };
}

afterEach(() => {
  vi.useRealTimers();
});

/** Lets every pending promise and effect run, so "still nothing" means nothing, not "not yet". */
async function settle(): Promise<void> {
  await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
}

describe('TextProvider (SPEC §1 start-up gate)', () => {
  it('asks for texts and token in parallel and renders nothing until both arrived', async () => {
    const service = deferredFetch();
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    const { container } = render(
      <TextProvider client={client} browserLanguage="de-DE">
        <Probe />
      </TextProvider>,
    );

    expect(service.seen.sort()).toEqual(['/api/getcsrftoken -', '/api/i18n/getresource -']);
    expect(container.innerHTML).toBe('');

    await service.release('/api/i18n/getresource', Response.json(texts));
    await settle();
    expect(container.innerHTML).toBe('');

    await service.release('/api/getcsrftoken', new Response('token-1'));
    expect(await screen.findByText('Welcome to Planner')).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
  });

  it('also waits when the token comes first', async () => {
    const service = deferredFetch();
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    const { container } = render(
      <TextProvider client={client} browserLanguage="en-US">
        <Probe />
      </TextProvider>,
    );
    await service.release('/api/getcsrftoken', new Response('token-1'));
    await settle();
    expect(container.innerHTML).toBe('');
    await service.release('/api/i18n/getresource', Response.json(texts));
    expect(await screen.findByText('Welcome to Planner')).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
  });

  it('renders nothing after a failed start-up and retries with back-off', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let failures = 2;
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      if (failures > 0 && String(input).includes('getresource')) {
        failures -= 1;
        throw new TypeError('Failed to fetch');
      }
      return String(input).includes('getresource') ? Response.json(texts) : new Response('token');
    });
    const client = createApiClient({ baseUrl: '', fetch });
    const { container } = render(
      <TextProvider client={client} browserLanguage="en">
        <Probe />
      </TextProvider>,
    );

    await act(async () => {
      await vi.advanceTimersByTimeAsync(retryDelayMs(0) - 1);
    });
    expect(container.innerHTML).toBe('');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1 + retryDelayMs(1));
    });
    vi.useRealTimers();
    expect(await screen.findByText('Welcome to Planner')).toBeTruthy();
    expect(fetch.mock.calls.filter(([url]) => String(url).includes('getresource'))).toHaveLength(3);
  });
});

describe('retryDelayMs', () => {
  it('doubles from one second and caps at thirty', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});
