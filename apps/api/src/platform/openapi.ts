import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ApiDocument } from './api-document/api-document';
import { refineDocument } from './api-document/refine-document';

export const OPENAPI_JSON_PATH = 'api/openapi.json';
export const OPENAPI_UI_PATH = 'api/docs';

/**
 * OpenAPI 3.1, generated from the controllers and DTOs (never by hand), with Swagger UI beside it.
 * SwaggerModule serves these routes outside Nest's router, so no guard asks them for a key. The
 * document is also kept for the MCP endpoint, whose tools are derived from it.
 */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Rank-Tracking API')
    .setDescription(
      'Tracks where a website ranks on Google for its keywords, day after day. Every call takes Authorization: Bearer <API_KEY>.',
    )
    .setVersion('1.0.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key of the account' }, 'bearer')
    .build();
  const document = refineDocument(SwaggerModule.createDocument(app, config));
  app.get(ApiDocument).set(document);
  SwaggerModule.setup(OPENAPI_UI_PATH, app, document, { jsonDocumentUrl: OPENAPI_JSON_PATH, yamlDocumentUrl: 'api/openapi.yaml' });
}
