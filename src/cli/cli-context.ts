import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { AppConfig } from '../config/config';
import { openRuntime, Runtime } from '../runtime';

/** What a command needs: the configuration, and a way to reach the services or the bare database. */
export class CliContext {
  constructor(readonly config: AppConfig) {}

  /** Runs `work` inside the application's modules (the database migrated first), as the server would. */
  async withApp<T>(work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
    return this.withRuntime(async (runtime) => {
      const app = await NestFactory.createApplicationContext(
        AppModule.forRoot({ config: runtime.config, databaseUrl: runtime.databaseUrl, poolSize: runtime.poolSize }),
        { logger: false, abortOnError: false },
      );
      try {
        return await work(app);
      } finally {
        await app.close();
      }
    });
  }

  /** Opens the database (migrating it) and runs `work` on the runtime. */
  async withRuntime<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
    const runtime = await openRuntime(this.config);
    try {
      return await work(runtime);
    } finally {
      await runtime.close();
    }
  }
}
