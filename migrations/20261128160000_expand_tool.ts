import type { Knex } from 'knex';

/** The Expand tool: its name joins the lists of tools a job row and a batch row may name (it runs in batches). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table image_jobs drop constraint image_jobs_tool_check');
  await knex.raw(`alter table image_jobs add constraint image_jobs_tool_check
    check (tool in ('generate', 'remove-background', 'upscale', 'ai-background', 'erase', 'expand'))`);
  await knex.raw('alter table batches drop constraint batches_tool_check');
  await knex.raw(`alter table batches add constraint batches_tool_check
    check (tool in ('remove-background', 'upscale', 'ai-background', 'expand'))`);
}

/** Back to the lists of the erase tool's migration (erase is not batchable, so batches had the three). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table image_jobs drop constraint image_jobs_tool_check');
  await knex.raw(`alter table image_jobs add constraint image_jobs_tool_check
    check (tool in ('generate', 'remove-background', 'upscale', 'ai-background', 'erase'))`);
  await knex.raw('alter table batches drop constraint batches_tool_check');
  await knex.raw(`alter table batches add constraint batches_tool_check
    check (tool in ('remove-background', 'upscale', 'ai-background'))`);
}
