// ts-jest adapter for the @nestjs/swagger compiler plugin, so tests see the same OpenAPI document as `nest build`.
const plugin = require('@nestjs/swagger/plugin');

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 2; // bump to invalidate ts-jest's cache after changing the options
module.exports.factory = (compiler) =>
  plugin.before(
    {
      introspectComments: true,
      classValidatorShim: true,
      dtoFileNameSuffix: ['.dto.ts', '.entity.ts', '.response.ts', '.query.ts'],
    },
    compiler.program,
  );
