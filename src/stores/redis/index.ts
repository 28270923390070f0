/** Redis's driver for the registry (src/stores/registry.ts): loads ioredis. */
import type { StoreDriver } from '../descriptor.js';
import { connectRedis } from './backend.js';
import { cleanUpRedisStore } from './cleanup.js';

export const driver: StoreDriver = { connect: connectRedis, cleanUp: cleanUpRedisStore };
