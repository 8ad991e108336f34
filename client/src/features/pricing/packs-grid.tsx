import { observer } from 'mobx-react-lite';
import { Badge, Button, Card, EmptyState, Skeleton } from '../../components';
import { Package } from 'lucide-react';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import type { Pack } from '../../types/domain';

interface PacksGridProps {
  /** A pack to draw attention to (chosen on the home page before signing in). */
  highlightId: string | null;
  onChoose: (pack: Pack) => void;
}

/** Every pack: title, description, price or "free", credits, and Choose on paid packs only. */
export const PacksGrid = observer(function PacksGrid({ highlightId, onChoose }: PacksGridProps) {
  const { packs, currencies, t, initState } = useStore();
  if (packs.packs.length === 0 && (packs.loading || initState !== 'ready')) {
    return (
      <ul className="packs-grid" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <li key={i}>
            <Card className="pack-card">
              <Skeleton height={24} width="60%" />
              <Skeleton height={32} width="40%" />
              <Skeleton height={48} />
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  if (packs.packs.length === 0) {
    return <EmptyState icon={<Package aria-hidden="true" />} text={packs.error ?? t('client-payments.pricing.packs.empty')} />;
  }
  return (
    <ul className="packs-grid">
      {packs.packs.map((pack) => {
        const free = pack.price <= 0;
        const highlighted = highlightId !== null && String(pack.id) === highlightId;
        return (
          <li key={pack.id}>
            <Card className={['pack-card', highlighted ? 'pack-card--highlight' : ''].filter(Boolean).join(' ')} data-testid={`pack-${pack.id}`}>
              <h3>{pack.title}</h3>
              {pack.description ? <p className="pack-card__description">{pack.description}</p> : null}
              <p className="pack-card__price">{free ? <Badge tone="success">{t('client-payments.pricing.packs.free')}</Badge> : currencies.format(pack.price)}</p>
              <p className="pack-card__credits">{t('client-payments.pricing.packs.credits', { n: formatTokens(pack.credits) })}</p>
              {free ? null : (
                <Button block onClick={() => onChoose(pack)} variant={highlighted ? 'primary' : 'secondary'}>
                  {t('client-payments.pricing.packs.choose')}
                </Button>
              )}
            </Card>
          </li>
        );
      })}
    </ul>
  );
});
