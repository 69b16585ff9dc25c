import { Injectable } from '@nestjs/common';
import { OpenAPIObject } from '@nestjs/swagger';
import { dump } from 'js-yaml';

/** The finished document of this application, set once at start-up (setupOpenApi) and served as it is. */
@Injectable()
export class OpenApiDocument {
  private json?: string;
  private yaml?: string;

  set(document: OpenAPIObject): void {
    this.json = JSON.stringify(document);
    this.yaml = dump(document, { noRefs: true });
  }

  get(format: 'json' | 'yaml'): string {
    const text = format === 'json' ? this.json : this.yaml;
    if (text === undefined) throw new Error('The OpenAPI document is set up with the application (setupOpenApi)');
    return text;
  }
}
