import { observer } from 'mobx-react-lite';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';

/** Plan title, price, tokens, VAT added and "Total to pay" of the chosen top-up, in the current currency. */
export const PlanSummary = observer(function PlanSummary() {
  const { topUp, currencies, t } = useStore();
  const plan = topUp.plan;
  if (!plan) return null;
  const { quote } = plan;
  return (
    <dl className="plan-summary" data-testid="plan-summary">
      <div>
        <dt>{t('client-payments.buy.plan')}</dt>
        <dd data-testid="plan-title">{plan.title}</dd>
      </div>
      <div>
        <dt>{t('client-payments.buy.price')}</dt>
        <dd data-testid="plan-price">{currencies.money(quote.subtotal)}</dd>
      </div>
      <div>
        <dt>{t('client-payments.buy.tokens')}</dt>
        <dd data-testid="plan-tokens">{formatTokens(quote.tokens)}</dd>
      </div>
      <div>
        <dt>{t('client-payments.buy.vatAdded', { percent: quote.vatPercent })}</dt>
        <dd data-testid="plan-vat">{currencies.money(quote.vat)}</dd>
      </div>
      <div className="plan-summary__total">
        <dt>{t('client-payments.buy.total')}</dt>
        <dd data-testid="plan-total">{currencies.money(quote.total)}</dd>
      </div>
    </dl>
  );
});
