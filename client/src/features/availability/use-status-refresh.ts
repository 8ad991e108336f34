import { useEffect } from 'react';
import { useStore } from '../../stores';
import { STATUS_REFRESH_MS } from './availability';

/**
 * Keeps GET /api/tools/status fresh while the calling page is open: at once, every STATUS_REFRESH_MS, and when
 * the tab becomes visible again (timers are slowed in background tabs), so a tool that a worker starts or stops
 * offering changes the page without a reload.
 */
export function useStatusRefresh(): void {
  const { tools } = useStore();
  useEffect(() => {
    void tools.loadStatus();
    const timer = setInterval(() => void tools.loadStatus(), STATUS_REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void tools.loadStatus();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [tools]);
}

/**
 * Asks GET /api/tools/status once when the calling page opens (the home page, a tool's landing page, About):
 * pages that only describe the tools need no refresh timer.
 */
export function useToolStatus(): void {
  const { tools } = useStore();
  useEffect(() => void tools.loadStatus(), [tools]);
}
