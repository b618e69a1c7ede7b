import { z } from 'zod';
import type { Route } from './route.js';

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete json.$schema;
  return json;
}

/** The OpenAPI 3.1 description of the routes, written from the same zod schemas that validate requests. */
export function openApiDocument(input: { routes: readonly Route[]; version: string }): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of input.routes) {
    const parameters: Json[] = [];
    for (const match of route.path.matchAll(/\{(\w+)\}/g)) {
      parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    }
    if (route.query) {
      const query = schemaOf(route.query);
      const properties = (query.properties ?? {}) as Record<string, Json>;
      const required = new Set((query.required ?? []) as string[]);
      for (const [name, schema] of Object.entries(properties)) {
        const { description, ...rest } = schema;
        parameters.push({ name, in: 'query', required: required.has(name), description, schema: rest });
      }
    }
    const operation: Json = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/\/(\w)/g, (_m, c: string) => c.toUpperCase())}`,
      parameters,
      responses: {
        '200': {
          description: 'OK',
          content: {
            [route.ndjson ? 'application/x-ndjson' : 'application/json']: {
              schema: route.response ? schemaOf(route.response, 'output') : { type: 'object' },
            },
          },
        },
        '400': { $ref: '#/components/responses/Error' },
        '404': { $ref: '#/components/responses/Error' },
        ...(route.write ? { '403': { $ref: '#/components/responses/Error' } } : {}),
      },
    };
    if (route.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(route.body) } } };
    }
    (paths[route.path] ??= {})[route.method] = operation;
  }
  paths['/api/backup'] = {
    get: {
      summary: 'The whole memory as a download in the pie backup format (gzip-compressed JSON Lines)',
      tags: ['maintain'],
      operationId: 'getApiBackup',
      responses: { '200': { description: 'the backup file', content: { 'application/gzip': {} } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'PIE HTTP API',
      version: input.version,
      description:
        'The world model of PIE (Personal Intelligence Engine) over HTTP: the same query functions as the CLI and the MCP server. Times are ISO 8601 (UTC). Errors are {"error":{"code","message","suggestions"}} with the status of the code. When the server is exposed beyond loopback, every /api request needs "Authorization: Bearer <PIE_TOKEN>".',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      responses: {
        Error: {
          description: 'A PIE error',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  error: {
                    type: 'object',
                    properties: {
                      code: { type: 'string' },
                      message: { type: 'string' },
                      suggestions: { type: 'array', items: { type: 'string' } },
                    },
                    required: ['code', 'message', 'suggestions'],
                  },
                },
                required: ['error'],
              },
            },
          },
        },
      },
    },
    security: [{ bearer: [] }, {}],
  };
}
