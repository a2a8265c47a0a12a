import {
  ADMIN_API_BASE,
  ADMIN_REFUSALS,
  ADMIN_SCOPE,
  type AdminCall,
  adminCalls,
  ERROR_STATUS,
  type ErrorCode,
  errorBodySchema,
} from '@keycard/contract';
import { z } from 'zod';
import { OIDC_MOUNT } from '../../oidc/provider.ts';
import { providerCalls } from './provider-calls.ts';

/**
 * The admin API's OpenAPI 3.1 document, generated from the same zod schemas the routes validate
 * with (zod's own z.toJSONSchema; OpenAPI 3.1 schemas are JSON Schema 2020-12, its default target).
 * Requests are described as accepted (io: 'input'), answers as sent (io: 'output'); checks that JSON
 * Schema cannot express (password policy, IDNA domains) are the server's and answered as
 * invalid_input naming the field.
 */

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** Path parameters and query fields, one OpenAPI parameter per property of the object schema. */
function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (schema === undefined) return [];
  const object = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** What each code an admin call declares means to its caller. */
const ERROR_MEANINGS: Partial<Record<ErrorCode, string>> = {
  invalid_input: 'the field named in `field` is wrong',
  unauthorized: 'no, unknown, revoked or expired access token',
  forbidden: `the token lacks ${ADMIN_SCOPE} or its client may not use this API`,
  conflict: 'the change contradicts the stored state (e.g. the address is taken)',
};

/**
 * The call's error answers by status, from the codes it declares (and those of every admin call,
 * ADMIN_REFUSALS). The transport's own (413, 415, 429, 5xx) are the same for every call and left out.
 */
function errorAnswers(call: AdminCall) {
  const byStatus = new Map<number, string[]>();
  for (const code of [...ADMIN_REFUSALS, ...call.errors]) {
    const meaning = ERROR_MEANINGS[code];
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), meaning ? `${code}: ${meaning}` : code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, descriptions]) => [
        String(status),
        { description: descriptions.join('; '), content: { 'application/json': { schema: ERROR_REF } } },
      ]),
  );
}

function operationOf(name: string, call: AdminCall) {
  const parameters = [...parametersOf(call.params, 'path'), ...parametersOf(call.query, 'query')];
  return {
    operationId: name,
    summary: call.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(call.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(call.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [String(call.status)]: {
        description: call.status === 201 ? 'Created' : 'OK',
        content: { 'application/json': { schema: jsonSchema(call.response, 'output') } },
      },
      ...errorAnswers(call),
    },
  };
}

function pathsOf(calls: Readonly<Record<string, AdminCall>>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, call] of Object.entries(calls)) {
    paths[call.path] = { ...paths[call.path], [call.method.toLowerCase()]: operationOf(name, call) };
  }
  return paths;
}

/** The document for a service at `publicUrl`; built once per service, it is the same for every call. */
export function buildOpenApiDocument(publicUrl: string) {
  const paths = pathsOf({ ...adminCalls, ...providerCalls });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Keycard admin API',
      version: '1',
      description: `Provisioning of accounts, OpenID Connect clients and upstream identity providers. Every call needs a client-credentials access token with the scope ${ADMIN_SCOPE}.`,
    },
    servers: [{ url: `${publicUrl}${ADMIN_API_BASE}` }],
    security: [{ clientCredentials: [ADMIN_SCOPE] }],
    components: {
      securitySchemes: {
        clientCredentials: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${publicUrl}${OIDC_MOUNT}/token`,
              scopes: { [ADMIN_SCOPE]: 'Call the admin API' },
            },
          },
        },
      },
      schemas: { Error: jsonSchema(errorBodySchema, 'output') },
    },
    paths,
  };
}
