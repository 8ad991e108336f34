import { useCallback, useRef } from 'react';
import { TIMINGS } from '../config/constants';
import { useStore } from '../stores';
import { guessBrowserCountry } from '../lib/country-guess';

/**
 * The phone input's helpers on the register and checkout forms: the visitor's country guessed from the
 * browser's time zone and languages (no third-party lookup), and the "unsupported country" warning, rate limited (at most one toast per 500 ms).
 */
export function usePhoneCountry(): {
  detectCountry: () => Promise<string | null>;
  onUnsupported: () => void;
} {
  const { ui, t } = useStore();
  const lastUnsupportedToast = useRef(0);
  const detectCountry = useCallback(() => Promise.resolve(guessBrowserCountry()), []);
  const onUnsupported = () => {
    const now = Date.now();
    if (now - lastUnsupportedToast.current < TIMINGS.unsupportedCountryToastMs) return;
    lastUnsupportedToast.current = now;
    ui.warning(t('shell.phone.unsupported'));
  };
  return { detectCountry, onUnsupported };
}
