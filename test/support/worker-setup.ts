// A Jest setup file: runs in each worker before each test file.
import { useWorkerDatabase } from './worker-database';

useWorkerDatabase();
