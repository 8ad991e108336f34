import {
  DEPOSIT_STATUSES,
  JOB_NAMES,
  JOB_STATUSES,
  type DepositStatus,
  type JobName,
  type JobStatus,
} from '@imagestudio/contracts';
import { byTool } from '../../config/tools';
import type { MessageKey, PluralKeys } from '../../lib/i18n';

/** The console's words for each tool (from each tool's own texts), job status and deposit status. */
export const TOOL_LABEL = byTool(JOB_NAMES, (tool) => `client-tools.admin.${tool}` as const) satisfies Record<
  JobName,
  MessageKey
>;

export const JOB_STATUS_LABEL: Record<JobStatus, MessageKey> = {
  queued: 'client-admin.jobStatus.queued',
  running: 'client-admin.jobStatus.running',
  succeeded: 'client-admin.jobStatus.succeeded',
  failed: 'client-admin.jobStatus.failed',
  cancelled: 'client-admin.jobStatus.cancelled',
};

/** Colours of the jobs-per-hour lines, one per status (readable on the dark surface). */
export const JOB_STATUS_COLOR: Record<JobStatus, string> = {
  queued: '#9aa3b2',
  running: '#a993ff',
  succeeded: '#19c3a6',
  failed: '#f0506e',
  cancelled: '#f5a524',
};

export const DEPOSIT_STATUS_LABEL = Object.fromEntries(
  DEPOSIT_STATUSES.map((s) => [s, `client-admin.depositStatus.${s}`]),
) as Record<DepositStatus, MessageKey>;

export { DEPOSIT_STATUSES, JOB_NAMES, JOB_STATUSES };

/** "1 token", "2.5 tokens": the counted forms the console's texts put their amounts in. */
export const TOKEN_COUNT: PluralKeys = { one: 'client-admin.tokenCount.one', other: 'client-admin.tokenCount.other' };
export const DEPOSIT_COUNT: PluralKeys = {
  one: 'client-admin.overview.deposits.one',
  other: 'client-admin.overview.deposits.other',
};
