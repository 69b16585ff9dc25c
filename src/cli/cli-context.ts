import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { AppConfig } from '../config/config';
import { createDataSourceOptions } from '../database/data-source-options';
import { openRuntime } from '../runtime';

/** What a command needs: the configuration, and a way to reach the services or the bare database. */
export class CliContext {
  constructor(readonly config: AppConfig) {}

  /** Runs `work` inside the application's modules (migrated first), as the server would. */
  async withApp<T>(work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
    const runtime = await openRuntime(this.config);
    try {
      const app = await NestFactory.createApplicationContext(
        AppModule.forRoot({ config: runtime.config, databaseUrl: runtime.databaseUrl, poolSize: runtime.poolSize }),
        { logger: false, abortOnError: false },
      );
      try {
        return await work(app);
      } finally {
        await app.close();
      }
    } finally {
      await runtime.close();
    }
  }

  /** Runs `work` on a plain data source, with no migration applied first. */
  async withDataSource<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> {
    const runtime = await openRuntime(this.config);
    try {
      const dataSource = await new DataSource(createDataSourceOptions(runtime.databaseUrl, 1)).initialize();
      try {
        return await work(dataSource);
      } finally {
        await dataSource.destroy();
      }
    } finally {
      await runtime.close();
    }
  }
}
