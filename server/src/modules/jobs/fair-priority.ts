/**
 * Fair scheduling across users on the one BullMQ queue. A user's first FAIR_SHARE open jobs (queued or
 * running, counted when each job is submitted) go to the queue without a priority, in arrival order; every
 * further job of theirs gets a BullMQ priority equal to how far beyond that share it is. BullMQ runs jobs
 * without a priority before prioritized ones, and prioritized ones lowest number first (arrival order within
 * a number), so:
 *
 * - another user's job waits behind at most FAIR_SHARE jobs of a user with a 50-image batch, not 50;
 * - two users with big batches alternate (each one's 3rd job has priority 1, each one's 4th priority 2, ...).
 *
 * Chosen over a per-user in-flight limit because it needs no second scheduler, no delayed re-queueing and
 * no counter that a crashed worker could leave wrong: the order is fixed when a job is added, and BullMQ's
 * own prioritized set keeps it. The cost: a job's priority is not revised later, so a user whose backlog
 * drains keeps the places already given to their queued jobs (new jobs are counted afresh).
 */
export const FAIR_SHARE = 2;

/** BullMQ's highest allowed priority number. */
const MAX_PRIORITY = 2_097_151;

/** The BullMQ priority of a job that is the user's `rank`-th open job (0-based); undefined = none. */
export function fairPriority(rank: number): number | undefined {
  if (rank < FAIR_SHARE) return undefined;
  return Math.min(rank - FAIR_SHARE + 1, MAX_PRIORITY);
}
