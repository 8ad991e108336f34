import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Cookie } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../../components';
import { COOKIE_CONSENT, LIMITS_UI } from '../../../config/constants';
import { readCookie, writeCookie } from '../../../lib/storage';
import { useStore } from '../../../stores';
import './cookie-banner.css';

/** Asks for cookie consent until "true" is stored; a stored "false" asks again on the next visit. */
export const CookieBanner = observer(function CookieBanner() {
  const { pages, t } = useStore();
  const [visible, setVisible] = useState(() => readCookie(COOKIE_CONSENT) !== 'true');
  // Shown once the static pages are known, so it appears whole, with its link to the cookie page.
  if (!visible || !pages.loaded) return null;
  const answer = (value: 'true' | 'false') => {
    writeCookie(COOKIE_CONSENT, value, LIMITS_UI.cookieConsentDays);
    setVisible(false);
  };
  const cookiePage = pages.cookiePage;
  return (
    <section className="cookie-banner" role="region" aria-label={t('shell.cookie.label')}>
      <Cookie aria-hidden="true" className="cookie-banner__icon" />
      <p className="cookie-banner__text">
        {t('shell.cookie.text')}{' '}
        {cookiePage ? <Link to={pages.pathOf(cookiePage)}>{t('shell.cookie.learnMore')}</Link> : null}
      </p>
      <div className="cookie-banner__actions">
        <Button variant="secondary" size="sm" onClick={() => answer('false')}>
          {t('shell.cookie.decline')}
        </Button>
        <Button size="sm" onClick={() => answer('true')}>
          {t('shell.cookie.accept')}
        </Button>
      </div>
    </section>
  );
});
