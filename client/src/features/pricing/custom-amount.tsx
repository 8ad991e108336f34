import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { ShoppingCart } from 'lucide-react';
import { Button, Card, Slider, TextField } from '../../components';
import { formatTokens, formatTokensInput } from '../../lib/format';
import { useStore } from '../../stores';
import { SLIDER_MAX_TOKENS, SLIDER_MIN_TOKENS, SLIDER_STEP_PERCENT, sliderPercent, sliderTokens } from './slider-math';

interface CustomAmountProps {
  tokens: number;
  onTokensChange: (tokens: number) => void;
  onBuy: (tokens: number) => void;
}

/** A typed amount the custom purchase accepts: 1 to 2000 tokens in tenths ("12,5" as well as "12.5"). */
function parseTypedTokens(text: string): number | null {
  const value = Number(text.trim().replace(',', '.'));
  if (text.trim() === '' || !Number.isFinite(value)) return null;
  if (value < SLIDER_MIN_TOKENS || value > SLIDER_MAX_TOKENS) return null;
  return Math.abs(value * 10 - Math.round(value * 10)) < 1e-9 ? Math.round(value * 10) / 10 : null;
}

/**
 * The custom amount: a slider for a quick choice and a number field for an exact one (the slider's mapping
 * cannot land on every round number), with tokens, price per token and total, live in the chosen currency.
 */
export const CustomAmount = observer(function CustomAmount({ tokens, onTokensChange, onBuy }: CustomAmountProps) {
  const { tokenPricing, currencies, t } = useStore();
  // What the customer is typing; null shows the amount itself (after the slider moved or the field was left).
  const [draft, setDraft] = useState<string | null>(null);
  const draftInvalid = draft !== null && parseTypedTokens(draft) === null;
  const quote = tokenPricing.quoteTokens(tokens);
  const unitRounded = quote !== null && tokenPricing.perTokenIsRounded(quote.pricePerToken);
  const unitText = quote ? tokenPricing.formatPerToken(quote.pricePerToken) : '—';
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
        value={sliderPercent(tokens)}
        onValueChange={(percent) => {
          setDraft(null);
          onTokensChange(sliderTokens(percent));
        }}
        valueText={t('client-payments.pricing.custom.valueText', { n: tokensText })}
        output={t('client-payments.pricing.custom.valueText', { n: tokensText })}
        data-testid="token-slider"
      />
      <TextField
        label={t('client-payments.pricing.custom.field')}
        // Text, not a number input: a number input shows "200.9" whatever the language, next to "200,9 Tokens".
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={draft ?? formatTokensInput(tokens)}
        onChange={(event) => {
          setDraft(event.target.value);
          const typed = parseTypedTokens(event.target.value);
          if (typed !== null) onTokensChange(typed);
        }}
        onBlur={() => {
          if (!draftInvalid) setDraft(null);
        }}
        error={draftInvalid ? t('client-payments.pricing.custom.fieldInvalid') : null}
        className="custom-amount__field"
        data-testid="custom-tokens-field"
      />
      <dl className="custom-amount__stats">
        <div>
          <dt>{t('client-payments.pricing.tokens')}</dt>
          <dd data-testid="custom-tokens">{tokensText}</dd>
        </div>
        <div>
          <dt>{t('client-payments.pricing.pricePerToken')}</dt>
          <dd data-testid="custom-unit-price">
            {unitRounded ? t('client-payments.pricing.approximately', { price: unitText }) : unitText}
          </dd>
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
        disabled={belowMinimum || draftInvalid}
        data-testid="custom-buy"
      >
        {t('client-payments.pricing.buy')}
      </Button>
    </Card>
  );
});
