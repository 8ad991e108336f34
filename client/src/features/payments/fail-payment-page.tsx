import { observer } from 'mobx-react-lite';
import { CircleX } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import { ResultPanel } from './result-panel';
import { useOnce } from './use-once';

/** /fail-payment: "Payment Failed", the `error` query text or the generic advice, an error toast. */
export const FailPaymentPage = observer(function FailPaymentPage() {
  const { ui, t } = useStore();
  const [params] = useSearchParams();
  const error = params.get('error')?.trim();

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
          <ButtonLink to={paths.pricing}>{t('client-payments.fail.tryAgain')}</ButtonLink>
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
