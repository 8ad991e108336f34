import { observer } from 'mobx-react-lite';
import { ShoppingCart } from 'lucide-react';
import { Button, Card, Slider } from '../../components';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { SLIDER_STEP_PERCENT, sliderTokens } from './slider-math';
import { formatUnitPrice } from './unit-price';

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
  const { code, symbol } = currencies.current;
  const tokensText = formatTokens(tokens);
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
          <dd data-testid="custom-unit-price">{quote ? formatUnitPrice(quote.pricePerToken, code, symbol, 2) : '—'}</dd>
        </div>
        <div>
          <dt>{t('client-payments.pricing.total')}</dt>
          <dd data-testid="custom-total" className="custom-amount__total">
            {quote ? currencies.format(quote.charge) : '—'}
          </dd>
        </div>
      </dl>
      {tokenPricing.vatPercent > 0 ? <p className="custom-amount__note">{t('client-payments.pricing.vatIncluded', { percent: tokenPricing.vatPercent })}</p> : null}
      <Button size="lg" block icon={<ShoppingCart aria-hidden="true" />} onClick={() => onBuy(tokens)} data-testid="custom-buy">
        {t('client-payments.pricing.buy')}
      </Button>
    </Card>
  );
});
