import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Hourglass } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { UNKNOWN_ORDER, isTerminalDeposit, useStore, type DepositStatus } from '../../stores';
import { startPendingChecks } from './pending-checks';
import { ResultPanel } from './result-panel';
import { resultPath } from './result-path';

/** The result page of a settled deposit; null while it is still open (this page). */
function settledPath(order: string, status: DepositStatus): string | null {
  return isTerminalDeposit(status) ? resultPath(order, status) : null;
}

/** /pending-payment and /processing-payment: "Payment Processing", Check Status, periodic re-checks. */
export const ProcessingPaymentPage = observer(function ProcessingPaymentPage() {
  const { auth, profile, topUp, t } = useStore();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const order = params.get('order_id') ?? params.get('order');
  const [checking, setChecking] = useState(false);
  const [checkMessage, setCheckMessage] = useState<string | null>(null);

  // First check 5 s after opening, then every 30 s; each refetches the profile. Cleared on leaving.
  useEffect(() => startPendingChecks(() => void profile.fetch()), [profile]);

  // With an order id, the deposit is polled every 5 s; once it settles the matching page is shown.
  useEffect(() => {
    if (!order || !auth.isAuthenticated) return;
    topUp.pollDeposit(order, (status) => {
      const next = settledPath(order, status);
      if (next) navigate(next, { replace: true });
    });
    return () => topUp.stopPolling();
  }, [order, auth.isAuthenticated, topUp, navigate]);

  const checkStatus = async () => {
    setChecking(true);
    setCheckMessage(null);
    const [status] = await Promise.all([
      order && auth.isAuthenticated ? topUp.checkDeposit(order) : Promise.resolve(null),
      profile.fetch(),
    ]);
    setChecking(false);
    const known = status === UNKNOWN_ORDER ? null : status;
    const failed =
      (auth.isAuthenticated && profile.error !== null) || (order !== null && auth.isAuthenticated && known === null);
    setCheckMessage(t(failed ? 'client-payments.errors.checkStatus' : 'client-payments.processing.checked'));
    const next = order && known ? settledPath(order, known) : null;
    if (next) navigate(next, { replace: true });
  };

  return (
    <ResultPanel
      tone="pending"
      icon={<Hourglass aria-hidden="true" />}
      title={t('client-payments.processing.title')}
      actions={
        <>
          <Button
            onClick={() => void checkStatus()}
            busy={checking}
            busyText={t('client-payments.processing.checking')}
          >
            {t('client-payments.processing.check')}
          </Button>
          <ButtonLink to={paths.account.root} variant="secondary">
            {t('client-payments.result.goToAccount')}
          </ButtonLink>
          <ButtonLink to={paths.home} variant="ghost">
            {t('client-payments.result.backHome')}
          </ButtonLink>
        </>
      }
    >
      <p>{t('client-payments.processing.text')}</p>
      <p>{t('client-payments.processing.wait')}</p>
      <p className="payment-result__order">
        {order ? t('client-payments.result.order', { id: order }) : t('client-payments.processing.email')}
      </p>
      {checkMessage ? (
        <p className="payment-result__status" role="status">
          {checkMessage}
        </p>
      ) : null}
    </ResultPanel>
  );
});
