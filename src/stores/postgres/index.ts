/** PostgreSQL's driver for the registry (src/stores/registry.ts): loads pg. */
import type { StoreDriver } from '../descriptor.js';
import { connectPostgres } from './backend.js';
import { cleanUpPostgresStore } from './cleanup.js';

export const driver: StoreDriver = { connect: connectPostgres, cleanUp: cleanUpPostgresStore };
