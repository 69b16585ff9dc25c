import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { operationScope } from './auth/scopes';
import { ErrorEnvelope } from './openapi/envelope.schemas';
import { finishDocument } from './openapi/finish-document';
import { OpenApiDocument } from './openapi/openapi-document';

export const API_PREFIX = 'api/v1';

const TITLE = 'Skills Management API';

/**
 * Builds the OpenAPI 3 description of the application, served (OpenApiDocumentController) at
 * /api/v1/openapi.json and .yaml, and an interactive page over it at /api/v1/docs.
 */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle(TITLE)
    .setDescription(
      'Employees, a skills catalogue, ratings, read-only positions and webhook endpoints, per organisation. ' +
        'Every success is `{success: true, data[, meta]}`; every error is `{success: false, error: {message, code}}`.',
    )
    .setVersion('1.0.0')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: 'An API key (`sk_` and 43 more characters), made with the `api-key create` command.',
      },
      'apiKey',
    )
    .addSecurityRequirements('apiKey')
    .build();
  const document = finishDocument(
    SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelope] }),
    `/${API_PREFIX}`,
    operationScope,
  );
  app.get(OpenApiDocument).set(document);
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, { raw: false, customSiteTitle: TITLE });
}
