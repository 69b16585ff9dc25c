import { DataSource } from 'typeorm';
import { createDataSourceOptions } from './src/database/data-source-options';

/** The TypeORM CLI's data source (`npm run typeorm -- migration:show`): the same options the app uses. */
if (!process.env.DATABASE_URL) throw new Error('Set DATABASE_URL to use the TypeORM CLI');

export default new DataSource(createDataSourceOptions(process.env.DATABASE_URL));
