import { observer } from 'mobx-react-lite';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';

/** The volume tiers in the chosen currency: the price per token falls as the amount grows. */
export const PriceTiers = observer(function PriceTiers() {
  const { tokenPricing, t } = useStore();
  return (
    <section className="price-tiers" aria-labelledby="price-tiers-title">
      <h3 id="price-tiers-title">{t('client-payments.pricing.tiers.title')}</h3>
      <ul>
        {tokenPricing.tiers.map((tier) => (
          <li key={tier.min}>
            <span>
              {tier.max === null
                ? t('client-payments.pricing.tiers.from', { min: formatTokens(tier.min) })
                : t('client-payments.pricing.tiers.range', {
                    min: formatTokens(tier.min),
                    max: formatTokens(tier.max),
                  })}
            </span>
            <strong>
              {t('client-payments.pricing.tiers.perToken', { price: tokenPricing.formatPerToken(tier.price) })}
            </strong>
          </li>
        ))}
      </ul>
    </section>
  );
});
