import { useEffect, useRef } from 'react';

/** Runs `effect` once per mounted page, even under StrictMode's doubled effects (a toast shows once). */
export function useOnce(effect: () => void): void {
  const done = useRef(false);
  const latest = useRef(effect);
  latest.current = effect;
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    latest.current();
  }, []);
}
