import type { Knex } from 'knex';

/**
 * Job webhooks: the per-user signing secret, and one delivery row per job that asked for a callback.
 * The delivery row is the retry state (attempts, next try, last outcome) read by the API's delivery task.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_secrets', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('cascade');
    /** Needed in clear to sign; shown to its owner in the API keys tab. */
    t.text('secret').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('job_webhooks', (t) => {
    t.uuid('job_id').primary().references('image_jobs.id').onDelete('cascade');
    t.uuid('user_id').notNullable().references('users.id').onDelete('cascade');
    t.text('url').notNullable();
    /** pending (waiting for the job to end, or for its next try), delivered, or failed (gave up). */
    t.text('state').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('last_status');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `alter table job_webhooks add constraint job_webhooks_state_check check (state in ('pending', 'delivered', 'failed'))`,
  );
  await knex.raw(`create index job_webhooks_due on job_webhooks (next_attempt_at) where state = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('job_webhooks');
  await knex.schema.dropTable('webhook_secrets');
}
