// In-memory stand-ins for the deps slices services declare (*.deps.ts), for unit tests that reach no service.
export { testConfig } from './config';
export { memoryRateLimits } from './rate-limits';
export { fakeQueueRedis, type FakeQueueRedis } from './queue-redis';
export { memoryCheckoutCatalog, type MemoryCatalogData } from './checkout-catalog';
export { unreachable } from './unreachable';
export { compositionBytesDb } from './composition-bytes-db';
export { keyedTable, type KeyedRow } from './keyed-table';
