import { getCalls } from '@keycard/contract';
import { textResourceFor } from '../../i18n/text-resource.ts';
import { parseInput } from '../parse-input.ts';
import type { RouteModule } from '../route-module.ts';

/** SPEC §7 GET api/i18n/getresource: the whole text resource for the browser's language. */
export const i18nRoutes: RouteModule = (api, { config, texts }) => {
  api.get(getCalls.getResource.path, async (request) => {
    const { requestedLanguageCode } = parseInput(getCalls.getResource.query, request.query, 'query');
    return textResourceFor(texts, config.site, requestedLanguageCode);
  });
};
