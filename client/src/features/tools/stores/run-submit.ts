import { runInAction } from 'mobx';
import type { Endpoint, RoutePayload, RouteSpec } from '@imagestudio/contracts';
import type { CallInput } from '../../../lib/api/api-client';
import { ApiRequestError } from '../../../lib/api/api-error';
import { handleApiError } from '../../../stores/api-error-catalogue';
import type { RootStore } from '../../../stores/root-store';

/** Why a run could not start, in the form the page shows it. */
export type RunProblem =
  | { kind: 'insufficient'; message: string; missing: number }
  | { kind: 'unavailable'; message: string }
  | { kind: 'invalid'; message: string; fieldErrors: Record<string, string> }
  | { kind: 'other'; message: string };

/** What sending a run's request moves in its store (a tool's single run or its batch). */
interface SubmittingRun {
  phase: 'idle' | 'submitting' | 'tracking';
  uploadFraction: number;
  problem: RunProblem | null;
}

/** A fresh Idempotency-Key per request, so a retried request can never charge twice. */
export function idempotencyKey(): Record<string, string> {
  const id = globalThis.crypto?.randomUUID?.();
  return id ? { 'Idempotency-Key': id } : {};
}

/**
 * Sends the request that starts a run (one job, or a batch) for `run`: the upload's progress goes to
 * `run.uploadFraction`; once accepted the balance is refreshed, `accepted` starts following what the reply
 * names, and the reply's payload is returned. When refused (or when following fails), `run` is back to 'idle'
 * with the problem to show, and null is returned. `expectedCost` (the quote) tells how many tokens are missing on
 * a 402; `invalidMessage` words a 422 or 413 when the run has more to say than its first field error.
 */
export async function submitRun<R extends RouteSpec>(
  root: RootStore,
  run: SubmittingRun,
  request: {
    /** A tool's run or the batch upload. */
    endpoint: Endpoint<R>;
    /** The endpoint's path parameters (a rerun names its job). */
    params?: Record<string, string>;
    body: FormData | Record<string, unknown>;
    expectedCost: number;
    accepted: (payload: RoutePayload<R>) => void | Promise<void>;
    invalidMessage?: (err: ApiRequestError) => string;
  },
): Promise<RoutePayload<R> | null> {
  run.phase = 'submitting';
  run.uploadFraction = 0;
  run.problem = null;
  try {
    // The route's body type is the tool's fields or a FormData upload; both are what `body` holds.
    const input = { body: request.body, params: request.params } as unknown as CallInput<R>;
    const reply = await root.api.call(request.endpoint, input, {
      skipErrorHandling: true,
      headers: idempotencyKey(),
      onUploadProgress: (fraction) => runInAction(() => (run.uploadFraction = fraction)),
    });
    const payload = reply.payload as RoutePayload<R>;
    void root.profile.fetch();
    await request.accepted(payload);
    return payload;
  } catch (err) {
    // The balance may have changed elsewhere: the missing amount is computed from the fresh one.
    if (err instanceof ApiRequestError && err.status === 402) await root.profile.fetch();
    runInAction(() => {
      run.phase = 'idle';
      run.problem = runProblem(root, err, request.expectedCost, request.invalidMessage);
    });
    return null;
  }
}

function runProblem(
  root: RootStore,
  err: unknown,
  expectedCost: number,
  invalidMessage?: (err: ApiRequestError) => string,
): RunProblem {
  const t = root.t;
  if (!(err instanceof ApiRequestError)) return { kind: 'other', message: t('client-tools.run.failedToStart') };
  if (err.status === 402) {
    const missing = Math.max(0.1, Math.round((expectedCost - root.profile.balance) * 10) / 10);
    return { kind: 'insufficient', message: err.message || t('client-tools.run.notEnoughTokens'), missing };
  }
  if (err.status === 503) {
    void root.tools.loadStatus();
    return { kind: 'unavailable', message: err.message || t('client-tools.run.unavailable') };
  }
  if (err.status === 422 || err.status === 413) {
    const fieldErrors = Object.fromEntries(Object.entries(err.fieldErrors).map(([k, v]) => [k, v?.[0] ?? '']));
    const message = invalidMessage ? invalidMessage(err) : err.firstFieldError() || err.message;
    return { kind: 'invalid', message, fieldErrors };
  }
  // 401, 403 (unverified email -> verification page), 429 and network: the app-wide catalogue.
  handleApiError(root, err);
  return { kind: 'other', message: err.message || t('client-tools.run.failedToStart') };
}
