import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { endpoints } from '@imagestudio/contracts';
import { Button } from '../../components';
import { messageOf } from '../../lib/api/api-error';
import { useStore } from '../../stores';

/**
 * "Send the link again" and the server's answer below it (sent, or the cool-down when asked too often):
 * the verification page and every place that stops an unverified customer offer the same button.
 */
export const ResendVerification = observer(function ResendVerification() {
  const { api, t } = useStore();
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);

  const resend = async () => {
    setSending(true);
    setAnswer(null);
    try {
      const reply = await api.call(endpoints.account.resendVerification, {}, { skipErrorHandling: true });
      setAnswer({ ok: true, text: reply.message ?? t('shell.verify.sent') });
    } catch (err) {
      setAnswer({ ok: false, text: messageOf(err, t('shell.errors.generic')) });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Button
        onClick={() => void resend()}
        busy={sending}
        busyText={t('shell.verify.sending')}
        data-testid="resend-verification"
      >
        {t('shell.verify.resend')}
      </Button>
      {answer ? (
        <p
          className={answer.ok ? 'notice notice--success' : 'notice notice--warning'}
          role="status"
          data-testid="resend-answer"
        >
          {answer.text}
        </p>
      ) : null}
    </>
  );
});
