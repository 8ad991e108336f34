import type { Knex } from 'knex';

/**
 * Image jobs (generate, remove-background, upscale). The row is created with its ledger charge in one
 * transaction; the server alone moves it to its outcome. Rows are never deleted: DELETE and retention
 * remove the stored files and mark the row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('image_jobs', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('restrict');
    t.text('tool').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    /** What the user asked for (the API's field names), shown back in history. */
    t.jsonb('params').notNullable().defaultTo('{}');
    t.bigInteger('cost_tenths').notNullable();
    t.boolean('refunded').notNullable().defaultTo(false);
    t.smallint('progress').notNullable().defaultTo(0);
    t.text('stage');
    /** User-facing message; `error_detail` keeps the worker's reason for operators. */
    t.text('error');
    t.text('error_detail');
    t.text('input_key');
    /** The worker's result (files, provider, timings, notes), validated by the contracts schema. */
    t.jsonb('result');
    t.text('idempotency_key');
    t.text('request_hash');
    t.text('request_id');
    t.timestamp('cancel_requested_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.timestamp('expired_at', { useTz: true });
    t.index(['user_id', 'created_at']);
  });
  await knex.raw(`alter table image_jobs add constraint image_jobs_tool_check
    check (tool in ('generate', 'remove-background', 'upscale'))`);
  await knex.raw(`alter table image_jobs add constraint image_jobs_status_check
    check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled'))`);
  await knex.raw('alter table image_jobs add constraint image_jobs_cost_positive check (cost_tenths > 0)');
  await knex.raw('alter table image_jobs add constraint image_jobs_progress_range check (progress between 0 and 100)');
  // A retried request with the same Idempotency-Key finds the first job; the index makes the race safe.
  await knex.raw(`create unique index image_jobs_user_idempotency_unique on image_jobs (user_id, idempotency_key)
    where idempotency_key is not null`);
  // The reconciler scans unfinished jobs; retention scans finished ones whose files still exist.
  await knex.raw(`create index image_jobs_open_idx on image_jobs (created_at) where status in ('queued', 'running')`);
  await knex.raw(`create index image_jobs_retention_idx on image_jobs (finished_at)
    where expired_at is null and deleted_at is null and finished_at is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('image_jobs');
}
