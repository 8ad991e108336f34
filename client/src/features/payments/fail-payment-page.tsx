import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { CircleX } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { ResultPanel } from './result-panel';
import { useOnce } from './use-once';

/**
 * /fail-payment: "Payment Failed", the `error` query text or the generic advice, an error toast. Try Again
 * reopens the same pack or amount when the order is known.
 */
export const FailPaymentPage = observer(function FailPaymentPage() {
  const { auth, topUp, ui, t } = useStore();
  const [params] = useSearchParams();
  const error = params.get('error')?.trim();
  const order = params.get('order');
  const [retry, setRetry] = useState<string>(paths.pricing);

  useEffect(() => {
    if (!order || !auth.isAuthenticated) return;
    let active = true;
    void topUp.retryPath(order).then((path) => active && setRetry(path));
    return () => {
      active = false;
    };
  }, [order, auth.isAuthenticated, topUp]);

  useOnce(() => {
    ui.error(t('client-payments.errors.paymentFailed'));
  });

  return (
    <ResultPanel
      tone="error"
      icon={<CircleX aria-hidden="true" />}
      title={t('client-payments.fail.title')}
      actions={
        <>
          <ButtonLink to={retry}>{t('client-payments.fail.tryAgain')}</ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            {t('client-payments.result.backHome')}
          </ButtonLink>
        </>
      }
    >
      {error ? (
        <p data-testid="payment-error">{error}</p>
      ) : (
        <>
          <p>{t('client-payments.fail.generic')}</p>
          <p>{t('client-payments.fail.advice')}</p>
        </>
      )}
    </ResultPanel>
  );
});
