import type { Knex } from 'knex';

export interface JobWebhookRow {
  job_id: string;
  user_id: string;
  url: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A claimed delivery with the time its job ended (the retry window runs from there). */
export type DueWebhook = JobWebhookRow & { finished_at: Date | null };

export async function insertWebhook(db: Knex, jobId: string, userId: string, url: string): Promise<void> {
  await db('job_webhooks').insert({ job_id: jobId, user_id: userId, url }).onConflict('job_id').ignore();
}

export async function findWebhook(db: Knex, jobId: string): Promise<JobWebhookRow | null> {
  return ((await db('job_webhooks').where({ job_id: jobId }).first()) as JobWebhookRow | undefined) ?? null;
}

/**
 * Claims up to `limit` pending deliveries that are due and whose job has ended, by pushing their next
 * try `leaseSeconds` ahead (so another API process skips them; a crashed sender's claim runs out).
 * Rows of `skip.users` and of destinations (host:port of the URL) in `skip.hosts` are left alone: those
 * already have all the deliveries in flight they may have, or are paused.
 */
export async function claimDue(
  db: Knex,
  limit: number,
  leaseSeconds: number,
  skip: { hosts: string[]; users: string[] } = { hosts: [], users: [] },
): Promise<DueWebhook[]> {
  const { rows } = await db.raw<{ rows: DueWebhook[] }>(
    `update job_webhooks w
        set next_attempt_at = now() + make_interval(secs => ?), updated_at = now()
       from image_jobs j
      where j.id = w.job_id
        and w.job_id in (
          select w2.job_id from job_webhooks w2 join image_jobs j2 on j2.id = w2.job_id
           where w2.state = 'pending' and w2.next_attempt_at <= now()
             and j2.status in ('succeeded', 'failed', 'cancelled')
             and w2.user_id::text not in (select jsonb_array_elements_text(?::jsonb))
             and coalesce(substring(w2.url from '^[a-zA-Z][a-zA-Z0-9+.-]*://([^/\\?#]*)'), '')
                 not in (select jsonb_array_elements_text(?::jsonb))
           order by w2.next_attempt_at
           limit ?
             for update of w2 skip locked)
      returning w.*, j.finished_at`,
    [leaseSeconds, JSON.stringify(skip.users), JSON.stringify(skip.hosts), limit],
  );
  return rows;
}

/** Gives a claimed delivery back untried (its destination or user is at its limit): due again at `at`. */
export async function releaseClaim(db: Knex, jobId: string, at: Date = new Date()): Promise<void> {
  await db('job_webhooks').where({ job_id: jobId, state: 'pending' }).update({ next_attempt_at: at });
}

export async function recordDelivered(db: Knex, jobId: string, attempts: number, status: number): Promise<void> {
  await db('job_webhooks').where({ job_id: jobId }).update({
    state: 'delivered',
    attempts,
    last_status: status,
    last_error: null,
    delivered_at: db.fn.now(),
    updated_at: db.fn.now(),
  });
}

/** A failed try: the next one at `nextAt`, or given up for good (state failed) when null. */
export async function recordFailure(
  db: Knex,
  jobId: string,
  attempts: number,
  outcome: { status: number | null; error: string },
  nextAt: Date | null,
): Promise<void> {
  await db('job_webhooks')
    .where({ job_id: jobId })
    .update({
      state: nextAt ? 'pending' : 'failed',
      attempts,
      last_status: outcome.status,
      last_error: outcome.error.slice(0, 500),
      ...(nextAt ? { next_attempt_at: nextAt } : {}),
      updated_at: db.fn.now(),
    });
}
