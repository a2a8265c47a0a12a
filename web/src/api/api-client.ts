import {
  type CallRequest,
  type CallResponse,
  CSRF_HEADER,
  type ErrorCode,
  type PostCallName,
  type TextResource,
} from '@keycard/contract';
import { ApiError } from './api-error.ts';
import { START_UP_ERRORS, START_UP_PATHS } from './start-up-paths.ts';
import { toTextResource } from './text-resource-check.ts';

/** The one client of the identity service (STYLE §4). It never redirects or shows anything itself. */
export interface ApiClient {
  /** SPEC §7 GET api/i18n/getresource. */
  getTextResource(requestedLanguageCode: string): Promise<TextResource>;
  /** SPEC §7 GET /api/getcsrftoken; the token is sent as X-CSRF-TOKEN on every later call. */
  fetchCsrfToken(): Promise<string>;
  /**
   * A POST call of the contract, its response parsed with the contract schema. It rejects with a
   * CallError<N>: an ApiError whose code is one the call declares (undeclared ones: internal_error).
   */
  post<N extends PostCallName>(name: N, body: CallRequest<N>): Promise<CallResponse<N>>;
}

export interface ApiClientOptions {
  /** Identity service origin (and path prefix); '' for the origin that serves the SPA. */
  readonly baseUrl: string;
  readonly fetch?: typeof fetch;
  /** The language the person reads the pages in; default: the document's (text-provider.tsx sets it). */
  readonly language?: () => string;
}

const documentLanguage = () => globalThis.document?.documentElement.lang ?? '';

const loadParsing = () => import('./call-parsing.ts');

/**
 * How long a call may take, its answer's body included, before the client stops waiting: the request
 * is cancelled and the call fails as no answer (service_unavailable, status 0), as when the network
 * failed; each screen answers that as it does a network failure (SPEC §8). Without it a request the
 * network or the service never answered left a screen waiting for good (the reset form busy, its
 * presses of Save doing nothing). The service may still finish what it was asked.
 */
export const CALL_TIMEOUT_MS = 30_000;

/** The body of getcsrftoken is the token: plain text, or a JSON string. */
function tokenFromBody(body: string): string {
  const trimmed = body.trim();
  if (!trimmed.startsWith('"')) return trimmed;
  const parsed: unknown = JSON.parse(trimmed);
  return typeof parsed === 'string' ? parsed : trimmed;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  // Late-bound, so a test that replaces globalThis.fetch reaches the default client too.
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const languageOf = options.language ?? documentLanguage;
  let csrfToken: string | undefined;

  async function send(
    path: string,
    declared: readonly ErrorCode[],
    signal: AbortSignal,
    init: RequestInit = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('Accept', 'application/json');
    // The mail a call sends is written in the language of the pages the person reads (ui_locales,
    // the language chosen), not the browser's (DESIGN §2 Mail: the request's language).
    const language = languageOf();
    if (language !== '') headers.set('Accept-Language', language);
    if (csrfToken !== undefined) headers.set(CSRF_HEADER, csrfToken);
    let response: Response;
    try {
      // SPEC §6/§7: cookies go with every call.
      response = await fetchImpl(`${base}${path}`, { ...init, headers, credentials: 'include', signal });
    } catch (error) {
      throw new ApiError('service_unavailable', 0, `${path}: ${String(error)}`);
    }
    if (!response.ok) throw await (await loadParsing()).errorFromResponse(response, declared);
    return response;
  }

  /** Runs one call within CALL_TIMEOUT_MS; past it the request is aborted and the call fails as no answer. */
  async function withinTimeout<T>(path: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new ApiError('service_unavailable', 0, `${path}: no answer within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
    });
    try {
      return await Promise.race([call(controller.signal), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function readJson(path: string, response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch {
      throw new ApiError('internal_error', response.status, `${path}: response is not JSON`);
    }
  }

  return {
    getTextResource(requestedLanguageCode) {
      const query = new URLSearchParams({ requestedLanguageCode });
      const path = `${START_UP_PATHS.getResource}?${query}`;
      return withinTimeout(path, async (signal) => {
        const texts = toTextResource(await readJson(path, await send(path, START_UP_ERRORS, signal)));
        if (!texts) throw new ApiError('internal_error', 200, `${path}: incomplete text resource`);
        return texts;
      });
    },

    fetchCsrfToken() {
      return withinTimeout(START_UP_PATHS.getCsrfToken, async (signal) => {
        const response = await send(START_UP_PATHS.getCsrfToken, START_UP_ERRORS, signal);
        const token = tokenFromBody(await response.text());
        if (token === '') throw new ApiError('internal_error', response.status, 'empty anti-forgery token');
        csrfToken = token;
        return token;
      });
    },

    post(name, body) {
      // The parsing module is a chunk of its own, loaded by the first call: within the time too.
      return withinTimeout(name, async (signal) => {
        const parsing = await loadParsing().catch((error: unknown) => {
          throw new ApiError('service_unavailable', 0, `${name}: ${String(error)}`);
        });
        const path = parsing.pathOf(name);
        const response = await send(path, parsing.errorsOf(name), signal, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        return parsing.parseCallResponse(name, response.status, await readJson(path, response));
      });
    },
  };
}
