import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Menu, UserRound, X } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { ButtonLink } from '../../../components';
import { paths } from '../../../config/paths';
import { useStore } from '../../../stores';
import { Balance } from './balance';
import { CurrencySelect } from './currency-select';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';
import { ServicesMenu } from './services-menu';
import './header.css';

/** The sticky top bar: logo, Home, Services, Pricing, and the guest or signed-in actions. */
export const Header = observer(function Header() {
  const { auth, t } = useStore();
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="header">
      <div className="container header__inner">
        <Link to={paths.home} className="header__logo" aria-label={t('shell.app.name')}>
          <Logo />
        </Link>
        <nav className="header__nav" aria-label={t('shell.nav.mainNavigation')}>
          <NavLink to={paths.home} end className="nav-link">
            {t('shell.nav.home')}
          </NavLink>
          <ServicesMenu />
          <NavLink to={paths.pricing} className="nav-link">
            {t('shell.nav.pricing')}
          </NavLink>
        </nav>
        <div className="header__actions">
          {auth.isAuthenticated ? (
            <>
              <CurrencySelect />
              <Balance />
              <ButtonLink to={paths.account.root} variant="secondary" size="sm" icon={<UserRound aria-hidden="true" />}>
                {t('shell.nav.profile')}
              </ButtonLink>
            </>
          ) : (
            <>
              <ButtonLink to={paths.login} variant="ghost" size="sm">
                {t('shell.nav.signIn')}
              </ButtonLink>
              <ButtonLink to={paths.register} size="sm">
                {t('shell.nav.signUp')}
              </ButtonLink>
            </>
          )}
        </div>
        <button
          type="button"
          className="header__burger"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? t('shell.nav.closeMenu') : t('shell.nav.openMenu')}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        </button>
      </div>
      <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} />
    </header>
  );
});
