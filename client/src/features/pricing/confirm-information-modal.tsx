import { useEffect, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Button, Checkbox, Modal, Spinner } from '../../components';
import type { PaymentMethod } from '@imagestudio/contracts';
import type { Translate } from '../../lib/i18n';
import { CHECKOUT_MODAL, useStore } from '../../stores';
import { BillingFields, billingInputId } from './billing-fields';

/**
 * The payment method's name in the reader's language. The card method (code `card`) has a text of its own; the
 * title in the settings is the operator's, in one language, so it is shown only for another method.
 */
function paymentMethodName(method: PaymentMethod | undefined, t: Translate): string {
  return !method || method.code === 'card' ? t('client-payments.buy.card') : method.title;
}

/**
 * Confirm Information: amount and payment method, a general error banner, the billing fields, the
 * save-information option, Back and Confirm Payment. Opening it prepares checkout.
 */
export const ConfirmInformationModal = observer(function ConfirmInformationModal() {
  const { ui, topUp, checkout, currencies, t } = useStore();
  const open = ui.isModalOpen(CHECKOUT_MODAL);

  useEffect(() => {
    if (open) void checkout.prepare();
  }, [open, checkout]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = checkout.validate();
    if (invalid.length > 0) {
      document.getElementById(billingInputId(invalid[0]!))?.focus();
      return;
    }
    await checkout.submit();
  };

  const total = topUp.plan?.quote.total;
  return (
    <Modal
      open={open}
      title={t('client-payments.checkout.title')}
      onClose={() => topUp.closeModals()}
      persistent={checkout.submitting}
      closeLabel={t('client-payments.account.cancel')}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={() => topUp.backToBuyModal()} disabled={checkout.submitting}>
            {t('client-payments.checkout.back')}
          </Button>
          <Button
            type="submit"
            form="checkout-form"
            busy={checkout.submitting}
            busyText={t('client-payments.checkout.busy')}
            disabled={checkout.preparing}
          >
            {t('client-payments.checkout.confirm')}
          </Button>
        </>
      }
    >
      <form id="checkout-form" className="checkout-form" onSubmit={(event) => void onSubmit(event)} noValidate>
        <dl className="checkout-form__summary">
          <div>
            <dt>{t('client-payments.checkout.amount')}</dt>
            <dd data-testid="checkout-amount">{total !== undefined ? currencies.money(total) : '—'}</dd>
          </div>
          <div>
            <dt>{t('client-payments.checkout.method')}</dt>
            <dd data-testid="checkout-method">{paymentMethodName(checkout.paymentMethod, t)}</dd>
          </div>
        </dl>
        {checkout.generalError ? (
          <p className="pay-alert pay-alert--error" role="alert" data-testid="checkout-error">
            {checkout.generalError}
          </p>
        ) : null}
        {checkout.preparing ? (
          <p className="checkout-form__loading">
            <Spinner size={16} /> {t('client-payments.checkout.loading')}
          </p>
        ) : null}
        <BillingFields />
        <Checkbox
          name="save_info"
          label={t('client-payments.checkout.saveInfo')}
          checked={checkout.saveInfo}
          onChange={(event) => checkout.setSaveInfo(event.target.checked)}
        />
      </form>
    </Modal>
  );
});
