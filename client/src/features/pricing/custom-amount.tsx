import { observer } from 'mobx-react-lite';
import { ShoppingCart } from 'lucide-react';
import { Button, Card, Slider } from '../../components';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { SLIDER_STEP_PERCENT, sliderTokens } from './slider-math';

interface CustomAmountProps {
  percent: number;
  onPercentChange: (percent: number) => void;
  onBuy: (tokens: number) => void;
}

/** The custom-amount slider with tokens, price per token and total, live in the chosen currency. */
export const CustomAmount = observer(function CustomAmount({ percent, onPercentChange, onBuy }: CustomAmountProps) {
  const { tokenPricing, currencies, t } = useStore();
  const tokens = sliderTokens(percent);
  const quote = tokenPricing.quoteTokens(tokens);
  const tokensText = formatTokens(tokens);
  const belowMinimum = quote !== null && quote.totalMinor < tokenPricing.minTopUpMinor;
  return (
    <Card raised className="custom-amount">
      <header className="custom-amount__header">
        <h2 id="custom-amount-title">{t('client-payments.pricing.custom.title')}</h2>
        <p>{t('client-payments.pricing.custom.text')}</p>
      </header>
      <Slider
        label={t('client-payments.pricing.custom.slider')}
        min={0}
        max={100}
        step={SLIDER_STEP_PERCENT}
        value={percent}
        onValueChange={onPercentChange}
        valueText={t('client-payments.pricing.custom.valueText', { n: tokensText })}
        output={t('client-payments.pricing.custom.valueText', { n: tokensText })}
        data-testid="token-slider"
      />
      <dl className="custom-amount__stats">
        <div>
          <dt>{t('client-payments.pricing.tokens')}</dt>
          <dd data-testid="custom-tokens">{tokensText}</dd>
        </div>
        <div>
          <dt>{t('client-payments.pricing.pricePerToken')}</dt>
          <dd data-testid="custom-unit-price">{quote ? tokenPricing.formatPerToken(quote.pricePerToken) : '—'}</dd>
        </div>
        <div>
          <dt>{t('client-payments.pricing.total')}</dt>
          <dd data-testid="custom-total" className="custom-amount__total">
            {quote ? currencies.format(quote.total) : '—'}
          </dd>
        </div>
      </dl>
      <p
        className={belowMinimum ? 'custom-amount__minimum notice notice--warning' : 'custom-amount__minimum'}
        data-testid="custom-minimum"
        role={belowMinimum ? 'status' : undefined}
      >
        {t('client-payments.pricing.custom.minimum', {
          amount: tokenPricing.minTopUpText,
          n: formatTokens(tokenPricing.minimumPurchaseTokens),
        })}
      </p>
      {tokenPricing.vatPercent > 0 ? (
        <p className="custom-amount__note">
          {t('client-payments.pricing.vatIncluded', { percent: tokenPricing.vatPercent })}
        </p>
      ) : null}
      <Button
        size="lg"
        block
        icon={<ShoppingCart aria-hidden="true" />}
        onClick={() => onBuy(tokens)}
        disabled={belowMinimum}
        data-testid="custom-buy"
      >
        {t('client-payments.pricing.buy')}
      </Button>
    </Card>
  );
});
