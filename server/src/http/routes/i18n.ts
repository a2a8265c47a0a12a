import { getCalls, type Language, languageFor } from '@keycard/contract';
import { parseInput } from '../../errors/parse-input.ts';
import { textResourceFor } from '../../i18n/text-resource.ts';
import { type PreparedBody, prepareBody, sendRevalidated } from '../revalidated-body.ts';
import type { RouteModule } from '../route-module.ts';

/**
 * SPEC §7 GET api/i18n/getresource: the whole text resource for the browser's language. It is the
 * same for every request of a language until the service restarts, so each language's answer is
 * compressed once, and browsers revalidate their copy by ETag instead of downloading it again.
 */
export const i18nRoutes: RouteModule = (api, { config, texts }) => {
  const prepared = new Map<Language, PreparedBody>();
  api.get(getCalls.getResource.path, async (request, reply) => {
    const { requestedLanguageCode } = parseInput(getCalls.getResource.query, request.query, 'query');
    const language = languageFor(requestedLanguageCode);
    let body = prepared.get(language);
    if (!body) {
      const resource = textResourceFor(texts, config.site, requestedLanguageCode);
      body = prepareBody(JSON.stringify(resource), 'application/json; charset=utf-8');
      prepared.set(language, body);
    }
    return sendRevalidated(request, reply, body);
  });
};
