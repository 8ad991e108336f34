import type { Knex } from 'knex';

/** The AI background tool: its name joins the lists of tools a job row and a batch row may name. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table image_jobs drop constraint image_jobs_tool_check');
  await knex.raw(`alter table image_jobs add constraint image_jobs_tool_check
    check (tool in ('generate', 'remove-background', 'upscale', 'ai-background'))`);
  await knex.raw('alter table batches drop constraint batches_tool_check');
  await knex.raw(`alter table batches add constraint batches_tool_check
    check (tool in ('remove-background', 'upscale', 'ai-background'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table image_jobs drop constraint image_jobs_tool_check');
  await knex.raw(`alter table image_jobs add constraint image_jobs_tool_check
    check (tool in ('generate', 'remove-background', 'upscale'))`);
  await knex.raw('alter table batches drop constraint batches_tool_check');
  await knex.raw(`alter table batches add constraint batches_tool_check
    check (tool in ('remove-background', 'upscale'))`);
}
