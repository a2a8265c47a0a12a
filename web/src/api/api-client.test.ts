import { answerableErrors, CSRF_HEADER, getCalls, TEXT_KEYS } from '@keycard/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client.ts';
import { ApiError, type CallError, retryAfterSeconds } from './api-error.ts';
import { START_UP_ERRORS, START_UP_PATHS } from './start-up-paths.ts';

const texts = Object.fromEntries(TEXT_KEYS.map((key) => [key, `${key} text`]));
const logoutAnswer = { username: 'Ada Lovelace', postLogoutRedirectUri: null };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A fetch double answering by path; records every request it sees. */
function fakeService(answers: Record<string, () => Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    const path = new URL(url, 'http://spa.test').pathname;
    const answer = answers[path];
    return answer ? answer() : json({ code: 'not_found', message: 'no route' }, 404);
  });
  const headerOf = (index: number, name: string) => new Headers(calls[index]?.init.headers).get(name);
  return { fetch, calls, headerOf };
}

describe('createApiClient', () => {
  it('uses the contract paths for the start-up calls', () => {
    expect(START_UP_PATHS.getResource).toBe(getCalls.getResource.path);
    expect(START_UP_PATHS.getCsrfToken).toBe(getCalls.getCsrfToken.path);
    expect(START_UP_ERRORS).toEqual(answerableErrors('api', getCalls.getResource));
    expect(START_UP_ERRORS).toEqual(answerableErrors('api', getCalls.getCsrfToken));
  });

  it('sends credentials on every call and the CSRF header on every call after the token arrived', async () => {
    const service = fakeService({
      '/api/i18n/getresource': () => json(texts),
      '/api/getcsrftoken': () => new Response('tok-123'),
      '/api/Logout': () => json(logoutAnswer),
    });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });

    await client.getTextResource('de-DE');
    expect(await client.fetchCsrfToken()).toBe('tok-123');
    await client.post('logout', { logoutId: 'L1' });
    await client.getTextResource('en');

    expect(service.calls.map((call) => call.init.credentials)).toEqual([
      'include',
      'include',
      'include',
      'include',
    ]);
    expect(service.headerOf(0, CSRF_HEADER)).toBeNull();
    expect(service.headerOf(1, CSRF_HEADER)).toBeNull();
    expect(service.headerOf(2, CSRF_HEADER)).toBe('tok-123');
    expect(service.headerOf(3, CSRF_HEADER)).toBe('tok-123');
  });

  it('sends the language the pages are read in as Accept-Language, so mail is written in it', async () => {
    const service = fakeService({
      '/api/getcsrftoken': () => new Response('tok-123'),
      '/api/Logout': () => json(logoutAnswer),
    });
    let language = 'de';
    const client = createApiClient({ baseUrl: '', fetch: service.fetch, language: () => language });
    await client.fetchCsrfToken();
    language = 'en';
    await client.post('logout', { logoutId: 'L1' });
    expect(service.headerOf(0, 'Accept-Language')).toBe('de');
    expect(service.headerOf(1, 'Accept-Language')).toBe('en');
  });

  it("takes that language from the document's lang, and sends none while it has none", async () => {
    const service = fakeService({ '/api/getcsrftoken': () => new Response('tok-123') });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    document.documentElement.lang = 'de';
    await client.fetchCsrfToken();
    document.documentElement.lang = '';
    await client.fetchCsrfToken();
    expect(service.headerOf(0, 'Accept-Language')).toBe('de');
    expect(service.headerOf(1, 'Accept-Language')).toBeNull();
  });

  it('prefixes the base URL and passes the browser language as requestedLanguageCode', async () => {
    const service = fakeService({ '/base/api/i18n/getresource': () => json(texts) });
    const client = createApiClient({ baseUrl: 'https://id.example/base/', fetch: service.fetch });
    await client.getTextResource('de-CH');
    expect(service.calls[0]?.url).toBe(
      'https://id.example/base/api/i18n/getresource?requestedLanguageCode=de-CH',
    );
  });

  it('posts JSON to the contract path and answers the parsed response', async () => {
    const service = fakeService({ '/api/Logout': () => json({ ...logoutAnswer, extra: 1 }) });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    const answer = await client.post('logout', { logoutId: 'L1' });
    expect(answer).toEqual(logoutAnswer);
    expect(service.calls[0]?.init.method).toBe('POST');
    expect(service.calls[0]?.init.body).toBe('{"logoutId":"L1"}');
    expect(service.headerOf(0, 'Content-Type')).toBe('application/json');
  });

  it('accepts the token as a JSON string', async () => {
    const service = fakeService({ '/api/getcsrftoken': () => json('tok-json') });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    expect(await client.fetchCsrfToken()).toBe('tok-json');
  });

  it('surfaces the contract error code of a failed call', async () => {
    const service = fakeService({
      '/api/Logout': () => json({ code: 'csrf_rejected', message: 'missing token' }, 403),
    });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    const error = await client.post('logout', { logoutId: 'L1' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'csrf_rejected', status: 403 });
  });

  it('narrows an error to the codes the call declares; any other is internal_error', async () => {
    const service = fakeService({
      '/api/Logout': () => json({ code: 'not_found', message: 'unknown logout' }, 404),
      '/api/CheckUsername': () => json({ code: 'not_found', message: 'no route' }, 404),
    });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    const logout = await client
      .post('logout', { logoutId: 'L1' })
      .catch((caught: CallError<'logout'>) => caught);
    expect(logout).toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.post('checkUsername', { Username: 'ada@example.com' })).rejects.toMatchObject({
      code: 'internal_error',
      status: 404,
    });
  });

  it("carries a refusal's Retry-After as the seconds to wait", async () => {
    const refused = () =>
      new Response(JSON.stringify({ code: 'rate_limited', message: 'Too many requests' }), {
        status: 429,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '42' },
      });
    const client = createApiClient({ baseUrl: '', fetch: fakeService({ '/api/login': refused }).fetch });
    const body = { Username: 'ada@example.com', Password: 'x', ReturnUrl: null };
    await expect(client.post('login', body)).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfterSeconds: 42,
    });
    const without = createApiClient({
      baseUrl: '',
      fetch: fakeService({ '/api/login': () => json({ code: 'rate_limited', message: 'x' }, 429) }).fetch,
    });
    await expect(without.post('login', body)).rejects.toMatchObject({ retryAfterSeconds: undefined });
  });

  it('reads Retry-After as seconds or as an HTTP date (RFC 9110 §10.2.3)', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Wed, 25 Nov 2026 12:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Wed, 25 Nov 2026 11:59:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds('', now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('-5', now)).toBeUndefined();
  });

  it('derives the code from the status when the error body is not the contract shape', async () => {
    const service = fakeService({ '/api/Logout': () => new Response('<html>', { status: 503 }) });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    await expect(client.post('logout', { logoutId: 'L1' })).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
    });
  });

  it('rejects a response that does not match the contract schema', async () => {
    const service = fakeService({ '/api/Logout': () => json({ username: 42 }) });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    await expect(client.post('logout', { logoutId: 'L1' })).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('rejects an incomplete text resource', async () => {
    const { helpLabel: _dropped, ...incomplete } = texts;
    const service = fakeService({ '/api/i18n/getresource': () => json(incomplete) });
    const client = createApiClient({ baseUrl: '', fetch: service.fetch });
    await expect(client.getTextResource('en')).rejects.toMatchObject({ code: 'internal_error' });
  });

  it('turns a network failure into service_unavailable with status 0', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const client = createApiClient({ baseUrl: '', fetch });
    await expect(client.fetchCsrfToken()).rejects.toMatchObject({ code: 'service_unavailable', status: 0 });
  });

  describe('a call without an answer', () => {
    /** A fetch that never answers, keeping the signal each request was given. */
    function silentService() {
      const signals: AbortSignal[] = [];
      let reached: () => void = () => undefined;
      /** Resolves once a request was sent (the call may first load its parsing module). */
      const sent = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const fetch = vi.fn((_input: RequestInfo | URL, init: RequestInit = {}) => {
        if (init.signal) signals.push(init.signal);
        reached();
        return new Promise<Response>(() => undefined);
      });
      return { fetch, signals, sent };
    }

    afterEach(() => {
      vi.useRealTimers();
    });

    it('fails as service_unavailable with status 0 after 30 s, its request aborted, and not a moment before', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const service = silentService();
      const client = createApiClient({ baseUrl: '', fetch: service.fetch });
      let outcome: unknown;
      const call = client.post('logout', { logoutId: 'L1' }).then(
        (answer) => {
          outcome = answer;
        },
        (error: unknown) => {
          outcome = error;
        },
      );
      await service.sent;
      await vi.advanceTimersByTimeAsync(29_999);
      expect(outcome).toBeUndefined();
      expect(service.signals.map((signal) => signal.aborted)).toEqual([false]);

      await vi.advanceTimersByTimeAsync(1);
      await call;
      expect(outcome).toBeInstanceOf(ApiError);
      expect(outcome).toMatchObject({ code: 'service_unavailable', status: 0 });
      expect(service.signals.map((signal) => signal.aborted)).toEqual([true]);
    });

    it('counts the time to the whole answer: a body that stops arriving fails the same way', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      // Headers arrive, the body never ends.
      const fetch = vi.fn(
        async () => new Response(new ReadableStream({ start: () => undefined }), { status: 200 }),
      );
      const client = createApiClient({ baseUrl: '', fetch });
      const token = client.fetchCsrfToken();
      const failed = expect(token).rejects.toMatchObject({ code: 'service_unavailable', status: 0 });
      await vi.advanceTimersByTimeAsync(30_000);
      await failed;
    });

    it('covers the start-up calls too, and a call answered in time is not cut short', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const silent = createApiClient({ baseUrl: '', fetch: silentService().fetch });
      const resource = silent.getTextResource('en');
      const failed = expect(resource).rejects.toMatchObject({ code: 'service_unavailable', status: 0 });
      await vi.advanceTimersByTimeAsync(30_000);
      await failed;

      const answered = createApiClient({
        baseUrl: '',
        fetch: fakeService({ '/api/getcsrftoken': () => new Response('tok-1') }).fetch,
      });
      expect(await answered.fetchCsrfToken()).toBe('tok-1');
      // Its deadline was cleared with the answer: nothing fires later.
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
