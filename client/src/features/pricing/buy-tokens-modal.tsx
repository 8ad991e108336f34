import { observer } from 'mobx-react-lite';
import { CreditCard } from 'lucide-react';
import { Button, Checkbox, Modal } from '../../components';
import { BUY_TOKENS_MODAL, DEFAULT_PAYMENT_TYPE, useStore } from '../../stores';
import { ResendVerification } from '../email-verification';
import { PlanSummary } from './plan-summary';
import { TermsAcceptanceLabel } from './terms-acceptance';

/**
 * Buy Tokens: what is bought and its total, the terms checkbox and the card button. An unverified customer
 * is told first that checkout needs a verified email address (with the resend button), before filling in
 * billing details that the API would refuse.
 */
export const BuyTokensModal = observer(function BuyTokensModal() {
  const { auth, ui, topUp, t } = useStore();
  const unverified = auth.isAuthenticated && !auth.emailVerified;
  return (
    <Modal
      open={ui.isModalOpen(BUY_TOKENS_MODAL)}
      title={t('client-payments.buy.title')}
      onClose={() => topUp.closeModals()}
      closeLabel={t('client-payments.account.cancel')}
    >
      <div className="buy-modal">
        <PlanSummary />
        {unverified ? (
          <div className="buy-modal__verify" data-testid="buy-unverified">
            <p className="pay-alert pay-alert--warning" role="status">
              {t('client-payments.buy.unverified')}
            </p>
            <ResendVerification />
          </div>
        ) : null}
        {topUp.warning ? (
          <p className="pay-alert pay-alert--warning" role="alert">
            {topUp.warning}
          </p>
        ) : null}
        {topUp.error ? (
          <p className="pay-alert pay-alert--error" role="alert">
            {topUp.error}
          </p>
        ) : null}
        <Checkbox
          name="terms"
          label={<TermsAcceptanceLabel />}
          checked={topUp.termsAccepted}
          onChange={(event) => topUp.setTermsAccepted(event.target.checked)}
        />
        <div className="buy-modal__methods">
          <p className="buy-modal__label">{t('client-payments.buy.paymentMethod')}</p>
          <Button
            size="lg"
            block
            icon={<CreditCard aria-hidden="true" />}
            disabled={unverified}
            onClick={() => topUp.proceedToCheckout(DEFAULT_PAYMENT_TYPE)}
          >
            {t('client-payments.buy.card')}
          </Button>
        </div>
      </div>
    </Modal>
  );
});
