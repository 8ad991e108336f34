import type { Knex } from 'knex';
import { defaultSettings } from '@imagestudio/contracts';
import { insertMissingSettings } from '../../server/src/modules/catalog/settings.repository';

/** Every setting with its default (contracts); values an operator already set are kept (insert if missing). */
export async function seed(knex: Knex): Promise<void> {
  await insertMissingSettings(knex, defaultSettings());
}
