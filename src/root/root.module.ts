import { Module } from '@nestjs/common';
import { OpenApiDocument } from '../openapi/openapi-document';
import { OpenApiDocumentController } from './openapi-document.controller';
import { RootController } from './root.controller';

/** Imported last, so its catch-all route (RootController's, the last controller) comes after every other. */
@Module({ controllers: [OpenApiDocumentController, RootController], providers: [OpenApiDocument] })
export class RootModule {}
