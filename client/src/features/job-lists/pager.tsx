import { useT } from '../../stores';
import { Button } from '../../components';

/** Previous / next with "Page n of m"; hidden when there is one page. */
export function Pager({ page, last, onPage }: { page: number; last: number; onPage(page: number): void }) {
  const t = useT();
  if (last <= 1) return null;
  return (
    <nav className="pager" aria-label={t('client-tools.lists.pageOf', { page, last })}>
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('client-tools.lists.previous')}
      </Button>
      <span>{t('client-tools.lists.pageOf', { page, last })}</span>
      <Button variant="secondary" size="sm" disabled={page >= last} onClick={() => onPage(page + 1)}>
        {t('client-tools.lists.next')}
      </Button>
    </nav>
  );
}
