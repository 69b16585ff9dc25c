/**
 * The framework floor: the raw baseline's own handler (`respond` in bench/baseline-server.ts) behind a bare
 * NestJS app on Express, one catch-all route and nothing else: no guards, pipes, interceptors, filters,
 * body parser or ORM. What it loses against the baseline is what NestJS and Express cost before the service
 * adds anything, so no build of the service can beat it. `npm run bench` measures it on every scenario the
 * baseline serves, and compare-builds beside builds:
 *
 *   npx ts-node --transpile-only bench/compare-builds.ts "GET employee by id" baseline floor dist
 *
 * Env: DATABASE_URL, PORT (3904), BASELINE_POOL_SIZE (the service's 10). Not part of the service.
 */
import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Module, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { respond } from './baseline-server';

@Controller()
class BaselineController {
  @All('*path')
  handle(@Req() request: IncomingMessage, @Res() response: ServerResponse): void {
    respond(request, response);
  }
}

@Module({ controllers: [BaselineController] })
class FloorModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(FloorModule, { bodyParser: false, logger: ['error'] });
  const port = Number(process.env.PORT ?? 3904);
  // An exit of its own on SIGTERM, so `node --cpu-prof` writes the profile (bench/profile.ts).
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  await app.listen(port, '127.0.0.1');
  console.log(`framework floor listening on ${port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
