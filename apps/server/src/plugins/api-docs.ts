import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import {
  API_VIEWER_PATH,
  buildOpenApiDocument,
  OPENAPI_PATH,
} from '@parley/protocol/openapi/document';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

/** The OpenAPI document, built once per process from the protocol's schemas (docs/openapi.json). */
export function openApiDocument() {
  document ??= buildOpenApiDocument();
  return document;
}

/**
 * The API's OpenAPI 3.1 document at `GET /v1/openapi.json`, and Swagger UI rendering it at
 * `/docs/api`: its files come from the @fastify/swagger-ui package (nothing from a CDN, so an
 * offline install shows it too) and it runs under the console's CSP (scripts from 'self' only,
 * no eval; no validator is called).
 */
export async function registerApiDocs(app: FastifyInstance) {
  const spec = openApiDocument();
  app.get(OPENAPI_PATH, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(spec),
  );
  await app.register(swagger, { mode: 'static', specification: { document: spec as never } });
  await app.register(swaggerUi, {
    routePrefix: API_VIEWER_PATH,
    theme: { title: 'Parley API' },
    // BaseLayout: the document alone, without Swagger UI's bar for loading another URL.
    uiConfig: {
      layout: 'BaseLayout',
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
    },
  });
}
