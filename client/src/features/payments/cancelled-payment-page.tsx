import { observer } from 'mobx-react-lite';
import { CircleSlash } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { ResultPanel } from './result-panel';

/**
 * /cancelled-payment: where a payment the customer cancelled lands, and (`expired=1`) a checkout that ran
 * out unpaid. Not a failure: no red toast, and it says plainly that nothing was charged.
 */
export const CancelledPaymentPage = observer(function CancelledPaymentPage() {
  const { t } = useStore();
  const [params] = useSearchParams();
  const order = params.get('order');
  const expired = params.get('expired') === '1';
  return (
    <ResultPanel
      tone="pending"
      icon={<CircleSlash aria-hidden="true" />}
      title={t(expired ? 'client-payments.expired.title' : 'client-payments.cancelled.title')}
      actions={
        <>
          <ButtonLink to={paths.pricing}>{t('client-payments.cancelled.again')}</ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            {t('client-payments.result.backHome')}
          </ButtonLink>
        </>
      }
    >
      <p data-testid="payment-cancelled">
        {t(expired ? 'client-payments.expired.text' : 'client-payments.cancelled.text')}
      </p>
      {order ? <p className="payment-result__order">{t('client-payments.result.order', { id: order })}</p> : null}
    </ResultPanel>
  );
});
