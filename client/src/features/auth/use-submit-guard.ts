import { useCallback, useRef } from 'react';
import { TIMINGS } from '../../config/constants';

/**
 * Double-submit guard: after a failed validation further submits are ignored for 300 ms,
 * after a real submit for 500 ms (and while the request runs the button is busy anyway).
 */
export function useSubmitGuard(now: () => number = Date.now) {
  const lockedUntil = useRef(0);
  const tryEnter = useCallback(() => now() >= lockedUntil.current, [now]);
  const failed = useCallback(() => {
    lockedUntil.current = now() + TIMINGS.submitGuardAfterFailureMs;
  }, [now]);
  const submitted = useCallback(() => {
    lockedUntil.current = now() + TIMINGS.submitGuardAfterSubmitMs;
  }, [now]);
  return { tryEnter, failed, submitted };
}
