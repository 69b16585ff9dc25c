import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ErrorEnvelope } from './common/openapi/envelope.schemas';

export const API_PREFIX = 'api/v1';

/** Serves the OpenAPI 3 description at /api/v1/openapi.json and an interactive page at /api/v1/docs. */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Skills Management API')
    .setDescription(
      'Employees, a skills catalogue, ratings, read-only positions and webhook endpoints, per organisation. ' +
        'Every success is `{success: true, data[, meta]}`; every error is `{success: false, error: {message, code}}`.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key' }, 'apiKey')
    .addSecurityRequirements('apiKey')
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorEnvelope] });
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
  });
}
