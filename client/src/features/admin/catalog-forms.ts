import { useState, type FormEvent } from 'react';
import type { ChangeOutcome } from './stores/changes';

/** Runs a change from a form and keeps its outcome for the message under it. */
export function useChange(): [ChangeOutcome | null, (run: () => Promise<ChangeOutcome>) => Promise<ChangeOutcome>] {
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const run = async (change: () => Promise<ChangeOutcome>) => {
    const result = await change();
    setOutcome(result);
    return result;
  };
  return [outcome, run];
}

/** A form's submit handler that runs `run` instead of posting the page. */
export const onSubmit = (run: () => void) => (event: FormEvent) => {
  event.preventDefault();
  run();
};
