import type { Knex } from 'knex';

/**
 * The erase tool: its name joins the tools a job row may name. A batch never runs it (a mask belongs to one
 * photo), so the batches' list stays as it is.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table image_jobs drop constraint image_jobs_tool_check');
  await knex.raw(`alter table image_jobs add constraint image_jobs_tool_check
    check (tool in ('generate', 'remove-background', 'upscale', 'ai-background', 'erase'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table image_jobs drop constraint image_jobs_tool_check');
  await knex.raw(`alter table image_jobs add constraint image_jobs_tool_check
    check (tool in ('generate', 'remove-background', 'upscale', 'ai-background'))`);
}
