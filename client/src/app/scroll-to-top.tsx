import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Scrolls to the top on navigation; on the same path only when the `page` query value changes
 * (so filters or tabs that touch other query values keep the reader's place).
 */
export function ScrollToTop() {
  const { pathname, search } = useLocation();
  const previous = useRef<{ pathname: string; page: string | null } | null>(null);
  useEffect(() => {
    const page = new URLSearchParams(search).get('page');
    const last = previous.current;
    if (!last || last.pathname !== pathname || last.page !== page) window.scrollTo(0, 0);
    previous.current = { pathname, page };
  }, [pathname, search]);
  return null;
}
