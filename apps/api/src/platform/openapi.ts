import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

export const OPENAPI_JSON_PATH = 'api/openapi.json';
export const OPENAPI_UI_PATH = 'api/docs';

/**
 * OpenAPI 3.1, generated from the controllers and DTOs (never by hand), with Swagger UI beside it.
 * SwaggerModule serves these routes outside Nest's router, so no guard asks them for a key.
 */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Rank-Tracking API')
    .setDescription('Tracks where a website ranks on Google for its keywords, day after day. Every call takes Authorization: Bearer <API_KEY>.')
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key of the account' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup(OPENAPI_UI_PATH, app, document, { jsonDocumentUrl: OPENAPI_JSON_PATH, yamlDocumentUrl: 'api/openapi.yaml' });
}
