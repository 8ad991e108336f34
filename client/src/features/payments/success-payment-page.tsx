import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { CircleCheck } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { ResultPanel } from './result-panel';
import { useOnce } from './use-once';

/** /success-payment: "Payment Successful!", the profile refreshed (new balance), a success toast. */
export const SuccessPaymentPage = observer(function SuccessPaymentPage() {
  const { auth, profile, topUp, ui, t } = useStore();
  const [params] = useSearchParams();
  const order = params.get('order');

  useOnce(() => {
    void profile.fetch();
    ui.success(t('client-payments.success.toast'));
  });

  // A webhook may still be on its way: watch the deposit until it settles, then refresh the balance.
  useEffect(() => {
    if (!order || !auth.isAuthenticated) return;
    topUp.pollDeposit(order, (status) => {
      if (status === 'Success') void profile.fetch();
    });
    return () => topUp.stopPolling();
  }, [order, auth.isAuthenticated, topUp, profile]);

  return (
    <ResultPanel
      tone="success"
      icon={<CircleCheck aria-hidden="true" />}
      title={t('client-payments.success.title')}
      actions={
        <>
          <ButtonLink to={paths.account.root}>{t('client-payments.result.goToAccount')}</ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            {t('client-payments.result.backHome')}
          </ButtonLink>
        </>
      }
    >
      <p>{t('client-payments.success.text')}</p>
      {order ? <p className="payment-result__order">{t('client-payments.result.order', { id: order })}</p> : null}
    </ResultPanel>
  );
});
