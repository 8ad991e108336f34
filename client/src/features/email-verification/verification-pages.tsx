import { observer } from 'mobx-react-lite';
import { BadgeCheck, MailCheck } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { safeRedirect } from '../../lib/redirect';
import { useStore } from '../../stores';
import { MessagePage } from '../misc';

/** /email-verification: where unverified users are sent (with the page they wanted as `redirect`). */
export const EmailVerificationPage = observer(function EmailVerificationPage() {
  const { t } = useStore();
  const [params] = useSearchParams();
  const back = safeRedirect(params.get('redirect'), paths.home);
  return (
    <MessagePage icon={<MailCheck aria-hidden="true" />} title={t('shell.verify.title')} text={t('shell.verify.text')}>
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
    <MessagePage icon={<BadgeCheck aria-hidden="true" />} title={t('shell.verify.successTitle')} text={t('shell.verify.successText')}>
      <ButtonLink to={paths.home}>{t('shell.verify.continue')}</ButtonLink>
    </MessagePage>
  );
});

/** /email/verify/already-success: the link was used before. */
export const EmailAlreadyVerifiedPage = observer(function EmailAlreadyVerifiedPage() {
  const { t } = useStore();
  return (
    <MessagePage icon={<BadgeCheck aria-hidden="true" />} title={t('shell.verify.alreadyTitle')} text={t('shell.verify.alreadyText')}>
      <ButtonLink to={paths.home}>{t('shell.verify.continue')}</ButtonLink>
    </MessagePage>
  );
});
