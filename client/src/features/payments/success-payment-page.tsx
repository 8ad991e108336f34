import { useEffect, useRef, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { CircleCheck, Hourglass } from 'lucide-react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { RESTORE_PARAM, checkoutReturn, type CheckoutReturn } from '../../lib/checkout-return';
import { loginRedirectPath } from '../../lib/redirect';
import { UNKNOWN_ORDER, useStore } from '../../stores';
import { ResultPanel } from './result-panel';
import { resultPath } from './result-path';

/**
 * /success-payment: "Payment Successful!", the profile refreshed (new balance), a success toast. With an
 * order, the deposit's status is checked first: a failed, cancelled or still open order is sent to its
 * own page, so nobody reads "successful" about a payment that did not go through, and one that cannot be read
 * just now to the processing page. Without an order, or with one this customer does not have, there is nothing
 * to confirm (the page was opened by hand or from an old bookmark): it sends home; a signed-out visitor with an
 * order signs in first, so the order can be checked.
 */
export const SuccessPaymentPage = observer(function SuccessPaymentPage() {
  const { auth, profile, topUp, ui, t } = useStore();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const order = params.get('order');
  // The page renders before the session check ends; until then nobody knows whether the order can be checked.
  const mustCheck = order !== null && auth.isAuthenticated;
  const [checked, setChecked] = useState(false);
  const confirmed = auth.authCheckedOnce && mustCheck && checked;
  const toasted = useRef(false);
  // Bought from inside a tool ("Buy N tokens"): the way back to it, with the files chosen there.
  const [back, setBack] = useState<CheckoutReturn | null>(null);
  useEffect(() => {
    void checkoutReturn().then(setBack);
  }, []);

  useEffect(() => {
    if (!mustCheck || !order) return;
    let cancelled = false;
    void topUp.checkDeposit(order).then((status) => {
      if (cancelled) return;
      if (status === 'Success') setChecked(true);
      // no such order of this customer: nothing to confirm, as without an order
      else if (status === UNKNOWN_ORDER) navigate(paths.home, { replace: true });
      // unreadable just now (network trouble): the processing page, which checks again and has a button for it
      else navigate(resultPath(order, status ?? 'Pending'), { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [mustCheck, order, topUp, navigate]);

  useEffect(() => {
    // once per page, even under StrictMode's doubled effects (a toast shows once)
    if (!confirmed || toasted.current) return;
    toasted.current = true;
    void profile.fetch();
    ui.success(t('client-payments.success.toast'));
  }, [confirmed, profile, ui, t]);

  if (order === null) return <Navigate to={paths.home} replace />;
  if (auth.authCheckedOnce && !auth.isAuthenticated)
    return <Navigate to={loginRedirectPath(`${paths.successPayment}?order=${encodeURIComponent(order)}`)} replace />;
  if (!confirmed) {
    return (
      <ResultPanel
        tone="pending"
        icon={<Hourglass aria-hidden="true" />}
        title={t('client-payments.success.checking')}
        actions={null}
      />
    );
  }
  return (
    <ResultPanel
      tone="success"
      icon={<CircleCheck aria-hidden="true" />}
      title={t('client-payments.success.title')}
      actions={
        <>
          {back ? (
            <ButtonLink to={`${back.path}?${RESTORE_PARAM}=1`}>
              {t('client-payments.result.backToTool', { tool: t(`client-tools.tool.${back.tool}`) })}
            </ButtonLink>
          ) : null}
          <ButtonLink to={paths.account.root} variant={back ? 'secondary' : 'primary'}>
            {t('client-payments.result.goToAccount')}
          </ButtonLink>
          <ButtonLink to={paths.home} variant="secondary">
            {t('client-payments.result.backHome')}
          </ButtonLink>
        </>
      }
    >
      <p>{t('client-payments.success.text')}</p>
      <p className="payment-result__order">{t('client-payments.result.order', { id: order })}</p>
    </ResultPanel>
  );
});
