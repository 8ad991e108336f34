import { useCallback, useRef } from 'react';
import { TIMINGS } from '../config/constants';
import { env } from '../config/env';
import { useStore } from '../stores';
import { lookupCountry } from '../lib/ip-country';

/**
 * The phone input's helpers on the register and checkout forms: the visitor's country from the IP lookup,
 * and the "unsupported country" warning, rate limited (at most one toast per 500 ms).
 */
export function usePhoneCountry(): {
  detectCountry: () => ReturnType<typeof lookupCountry>;
  onUnsupported: () => void;
} {
  const { ui, t } = useStore();
  const lastUnsupportedToast = useRef(0);
  const detectCountry = useCallback(() => lookupCountry(env.ipCountryUrl, TIMINGS.ipLookupTimeoutMs), []);
  const onUnsupported = () => {
    const now = Date.now();
    if (now - lastUnsupportedToast.current < TIMINGS.unsupportedCountryToastMs) return;
    lastUnsupportedToast.current = now;
    ui.warning(t('shell.phone.unsupported'));
  };
  return { detectCountry, onUnsupported };
}
