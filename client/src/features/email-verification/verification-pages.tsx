import { observer } from 'mobx-react-lite';
import { BadgeCheck, MailCheck, MailWarning } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { safeRedirect } from '../../lib/redirect';
import { useStore } from '../../stores';
import { MessagePage } from '../message-pages';
import { ResendVerification } from './resend-verification';

/**
 * /email-verification: where unverified users are sent (with the page they wanted as `redirect`). Names
 * the address the link went to, explains an invalid or expired link (`?invalid=1`), and re-sends the
 * link, showing the server's answer (sent, or the cool-down when asked too often).
 */
export const EmailVerificationPage = observer(function EmailVerificationPage() {
  const { profile, t } = useStore();
  const [params] = useSearchParams();
  const back = safeRedirect(params.get('redirect'), paths.home);
  const invalid = params.get('invalid') === '1';
  const email = profile.profile?.email;

  const text = invalid
    ? t('shell.verify.invalid')
    : email
      ? t('shell.verify.sentTo', { email })
      : t('shell.verify.text');
  return (
    <MessagePage
      icon={invalid ? <MailWarning aria-hidden="true" /> : <MailCheck aria-hidden="true" />}
      title={t('shell.verify.title')}
      text={text}
    >
      <ResendVerification />
      <ButtonLink to={back} variant="secondary">
        {t('shell.verify.continue')}
      </ButtonLink>
    </MessagePage>
  );
});

/** /email/verify/success: the verification link worked. */
export const EmailVerifiedPage = observer(function EmailVerifiedPage() {
  const { t } = useStore();
  return (
    <MessagePage
      icon={<BadgeCheck aria-hidden="true" />}
      title={t('shell.verify.successTitle')}
      text={t('shell.verify.successText')}
    >
      <ButtonLink to={paths.home}>{t('shell.verify.continue')}</ButtonLink>
    </MessagePage>
  );
});

/** /email/verify/already-success: the link was used before. */
export const EmailAlreadyVerifiedPage = observer(function EmailAlreadyVerifiedPage() {
  const { t } = useStore();
  return (
    <MessagePage
      icon={<BadgeCheck aria-hidden="true" />}
      title={t('shell.verify.alreadyTitle')}
      text={t('shell.verify.alreadyText')}
    >
      <ButtonLink to={paths.home}>{t('shell.verify.continue')}</ButtonLink>
    </MessagePage>
  );
});
