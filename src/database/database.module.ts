import { Global, Module } from '@nestjs/common';
import { BookkeepingWrites } from './bookkeeping-writes';
import { Database } from './database';

@Global()
@Module({ providers: [Database, BookkeepingWrites], exports: [Database, BookkeepingWrites] })
export class DatabaseModule {}
