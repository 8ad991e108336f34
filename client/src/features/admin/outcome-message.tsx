import type { ChangeOutcome } from './stores/changes';

/** What a change ended with, under its form: the server's messages (per field first), or the done text. */
export function OutcomeMessage({ outcome, done }: { outcome: ChangeOutcome | null; done: string }) {
  if (!outcome) return null;
  if (outcome.ok)
    return (
      <p className="admin-ok" role="status">
        {done}
      </p>
    );
  const fields = Object.entries(outcome.fieldErrors);
  return (
    <p className="admin-alert" role="alert">
      {fields.length > 0 ? fields.map(([, message]) => message).join(' ') : outcome.message}
    </p>
  );
}
