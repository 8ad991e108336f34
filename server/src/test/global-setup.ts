import { prepareDatabase } from '../lib/migrator';
import { TEST_DATABASE_URL } from '@imagestudio/runtime/testing';

/** Once per jest run: create the test database if missing, migrate it and seed it. */
export default async function globalSetup(): Promise<void> {
  await prepareDatabase(TEST_DATABASE_URL);
}
