import { observer } from 'mobx-react-lite';
import { Badge, Button, Card, EmptyState, Skeleton } from '../../components';
import { Package } from 'lucide-react';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import type { PackView } from '@imagestudio/contracts';
import { packText } from '../../lib/catalog-text';

interface PacksGridProps {
  /** A pack to draw attention to (chosen on the home page before signing in). */
  highlightId: string | null;
  onChoose: (pack: PackView) => void;
}

/** Every pack: title, description, price or "free", credits, and Choose on paid packs only. */
export const PacksGrid = observer(function PacksGrid({ highlightId, onChoose }: PacksGridProps) {
  const { packs, currencies, languages, t, initState } = useStore();
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
    return (
      <EmptyState
        icon={<Package aria-hidden="true" />}
        text={packs.error ?? t('client-payments.pricing.packs.empty')}
      />
    );
  }
  return (
    <ul className="packs-grid">
      {packs.packs.map((pack) => {
        const free = pack.price <= 0;
        const highlighted = highlightId !== null && String(pack.id) === highlightId;
        const text = packText(languages.catalogText, pack);
        return (
          <li key={pack.id}>
            <Card
              className={['pack-card', highlighted ? 'pack-card--highlight' : ''].filter(Boolean).join(' ')}
              data-testid={`pack-${pack.id}`}
            >
              <h3>{text.title}</h3>
              {text.description ? <p className="pack-card__description">{text.description}</p> : null}
              <p className="pack-card__price">
                {free ? (
                  <Badge tone="success">{t('client-payments.pricing.packs.free')}</Badge>
                ) : (
                  currencies.format(pack.price)
                )}
              </p>
              <p className="pack-card__credits">
                {t('client-payments.pricing.packs.credits', { n: formatTokens(pack.credits) })}
              </p>
              {!free && (pack.saving ?? 0) > 0 ? (
                <p className="pack-card__saving" data-testid={`pack-saving-${pack.id}`}>
                  {t('client-payments.pricing.packs.saving', { amount: currencies.format(pack.saving ?? 0) })}
                </p>
              ) : null}
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
