import { DynamicModule, Global, Module } from '@nestjs/common';
import { BookkeepingWrites } from './bookkeeping-writes';
import { Database } from './database';
import { REPLICA_OPTIONS, ReplicaOptions, Replicas } from './replicas';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(replicas: ReplicaOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [Database, BookkeepingWrites, Replicas, { provide: REPLICA_OPTIONS, useValue: replicas }],
      exports: [Database, BookkeepingWrites, Replicas],
    };
  }
}
