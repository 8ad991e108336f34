import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { CircleX } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import type { MessageKey } from '../../lib/i18n';
import { useStore } from '../../stores';
import { ResultPanel } from './result-panel';
import { useOnce } from './use-once';

/**
 * The failure codes the server and the client put in `error` (FAIL_CODES on the server's result pages), each
 * with its own text. The query is never shown as written: anyone can send a link with any text in it.
 */
const FAIL_REASONS = {
  card_declined: 'client-payments.fail.reason.card_declined',
  payment_failed: 'client-payments.fail.reason.payment_failed',
  checkout_failed: 'client-payments.fail.reason.checkout_failed',
  amount_mismatch: 'client-payments.fail.reason.amount_mismatch',
} as const satisfies Record<string, MessageKey>;

/** The text key for an `error` code, or null for none or an unknown one. */
function failReason(code: string | null): MessageKey | null {
  return code && Object.hasOwn(FAIL_REASONS, code) ? FAIL_REASONS[code as keyof typeof FAIL_REASONS] : null;
}

/**
 * /fail-payment: "Payment Failed", the text of a known `error` code or the generic advice, an error toast.
 * Try Again reopens the same pack or amount when the order is known.
 */
export const FailPaymentPage = observer(function FailPaymentPage() {
  const { auth, topUp, ui, t } = useStore();
  const [params] = useSearchParams();
  const reason = failReason(params.get('error'));
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
      {reason ? (
        <p data-testid="payment-error">{t(reason)}</p>
      ) : (
        <>
          <p>{t('client-payments.fail.generic')}</p>
          <p>{t('client-payments.fail.advice')}</p>
        </>
      )}
    </ResultPanel>
  );
});
