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
}

const loadParsing = () => import('./call-parsing.ts');

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
  let csrfToken: string | undefined;

  async function send(
    path: string,
    declared: readonly ErrorCode[],
    init: RequestInit = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('Accept', 'application/json');
    if (csrfToken !== undefined) headers.set(CSRF_HEADER, csrfToken);
    let response: Response;
    try {
      // SPEC §6/§7: cookies go with every call.
      response = await fetchImpl(`${base}${path}`, { ...init, headers, credentials: 'include' });
    } catch (error) {
      throw new ApiError('service_unavailable', 0, `${path}: ${String(error)}`);
    }
    if (!response.ok) throw await (await loadParsing()).errorFromResponse(response, declared);
    return response;
  }

  async function readJson(path: string, response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch {
      throw new ApiError('internal_error', response.status, `${path}: response is not JSON`);
    }
  }

  return {
    async getTextResource(requestedLanguageCode) {
      const query = new URLSearchParams({ requestedLanguageCode });
      const path = `${START_UP_PATHS.getResource}?${query}`;
      const texts = toTextResource(await readJson(path, await send(path, START_UP_ERRORS)));
      if (!texts) throw new ApiError('internal_error', 200, `${path}: incomplete text resource`);
      return texts;
    },

    async fetchCsrfToken() {
      const response = await send(START_UP_PATHS.getCsrfToken, START_UP_ERRORS);
      const token = tokenFromBody(await response.text());
      if (token === '') throw new ApiError('internal_error', response.status, 'empty anti-forgery token');
      csrfToken = token;
      return token;
    },

    async post(name, body) {
      const parsing = await loadParsing();
      const path = parsing.pathOf(name);
      const response = await send(path, parsing.errorsOf(name), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return parsing.parseCallResponse(name, response.status, await readJson(path, response));
    },
  };
}
