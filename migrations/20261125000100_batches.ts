import type { Knex } from 'knex';

/**
 * Batches: one tool run over many uploaded images. The batch row holds what is shared (tool, options, the
 * request's Idempotency-Key); each image is an ordinary image_jobs row with its own charge, linked by
 * batch_id and ordered by batch_position. A retried item is a new job whose retry_of names the one it
 * replaces. The batch's status and counts are derived from its jobs, never stored twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('batches', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('restrict');
    t.text('tool').notNullable();
    t.jsonb('params').notNullable().defaultTo('{}');
    t.integer('item_count').notNullable();
    t.text('idempotency_key');
    t.text('request_hash');
    t.text('request_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `alter table batches add constraint batches_tool_check check (tool in ('remove-background', 'upscale'))`,
  );
  await knex.raw('alter table batches add constraint batches_item_count_range check (item_count between 1 and 50)');
  await knex.raw('create index batches_user_created_idx on batches (user_id, created_at desc, id desc)');
  await knex.raw(`create unique index batches_user_idempotency_unique on batches (user_id, idempotency_key)
    where idempotency_key is not null`);

  await knex.schema.alterTable('image_jobs', (t) => {
    t.uuid('batch_id').references('batches.id').onDelete('restrict');
    t.smallint('batch_position');
    t.uuid('retry_of').references('image_jobs.id').onDelete('restrict');
  });
  await knex.raw(
    'create index image_jobs_batch_idx on image_jobs (batch_id, batch_position) where batch_id is not null',
  );
  // One retry per item: a second retry of the same item is refused by this index, even when two race.
  await knex.raw('create unique index image_jobs_retry_of_unique on image_jobs (retry_of) where retry_of is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists image_jobs_retry_of_unique');
  await knex.raw('drop index if exists image_jobs_batch_idx');
  await knex.schema.alterTable('image_jobs', (t) => {
    t.dropColumn('retry_of');
    t.dropColumn('batch_position');
    t.dropColumn('batch_id');
  });
  await knex.schema.dropTable('batches');
}
