import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../../components';
import { LAYOUT } from '../../../config/constants';
import { paths } from '../../../config/paths';
import { useMediaQuery } from '../../../hooks/use-media-query';
import { useStore } from '../../../stores';
import { ServiceAvailabilityMark, useServicesStatus } from '../../availability';
import { serviceLinks } from '../service-links';
import { Balance } from './balance';
import { CurrencySelect } from './currency-select';

/** The menu below 768 px; closes on Escape, on navigation, and when the window grows to 768 px or wider. */
export const MobileMenu = observer(function MobileMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { auth, t } = useStore();
  const wide = useMediaQuery(`(min-width: ${LAYOUT.mobileBreakpointPx}px)`);

  useEffect(() => {
    if (open && wide) onClose();
  }, [open, wide, onClose]);
  useServicesStatus(open);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  if (!open) return null;
  return (
    <nav id="mobile-menu" className="mobile-menu" aria-label={t('shell.nav.mainNavigation')}>
      <div className="container mobile-menu__inner">
        <Link to={paths.home} className="mobile-menu__link" onClick={onClose}>
          {t('shell.nav.home')}
        </Link>
        <div className="mobile-menu__group">
          <span className="mobile-menu__heading">{t('shell.nav.services')}</span>
          {serviceLinks(auth.isAuthenticated).map((item) => (
            <Link key={item.key} to={item.to} className="mobile-menu__link mobile-menu__link--sub" onClick={onClose}>
              <ServiceAvailabilityMark tool={item.tool} label={t(item.key)} />
            </Link>
          ))}
        </div>
        <Link to={paths.pricing} className="mobile-menu__link" onClick={onClose}>
          {t('shell.nav.pricing')}
        </Link>
        {auth.isAuthenticated ? (
          <>
            <CurrencySelect id="mobile-currency" />
            <Balance />
            <ButtonLink to={paths.account.root} variant="secondary" block onClick={onClose}>
              {t('shell.nav.profile')}
            </ButtonLink>
            <Button
              variant="ghost"
              block
              onClick={() => {
                onClose();
                void auth.logout();
              }}
            >
              {t('shell.nav.logout')}
            </Button>
          </>
        ) : (
          <>
            <ButtonLink to={paths.register} block onClick={onClose}>
              {t('shell.nav.signUp')}
            </ButtonLink>
            <ButtonLink to={paths.login} variant="secondary" block onClick={onClose}>
              {t('shell.nav.logIn')}
            </ButtonLink>
          </>
        )}
      </div>
    </nav>
  );
});
