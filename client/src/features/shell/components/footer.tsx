import { observer } from 'mobx-react-lite';
import { LifeBuoy } from 'lucide-react';
import { Link } from 'react-router';
import { DEFAULT_COPYRIGHT } from '@imagestudio/contracts';
import { paths } from '../../../config/paths';
import { localizeAddress, localizeRequisites } from '../../../lib/company-details';
import { useStore } from '../../../stores';
import { CardBrands } from './card-brands';
import { LanguageSelect } from './language-select';
import { Logo } from './logo';
import './footer.css';

/** Support strip, company details from settings, links to every static page, card brands, copyright. */
export const Footer = observer(function Footer() {
  const { settings, pages, languages, t } = useStore();
  const s = settings.settings;
  const supportEmail = s?.support_email ?? '';
  return (
    <footer className="footer">
      <div className="footer__support">
        <div className="container footer__support-inner">
          <LifeBuoy aria-hidden="true" />
          <p>{t('shell.footer.support')}</p>
          {supportEmail ? <a href={`mailto:${supportEmail}`}>{supportEmail}</a> : null}
        </div>
      </div>
      <div className="container footer__grid">
        <section className="footer__company" aria-label={t('shell.footer.company')}>
          <Logo />
          <dl>
            {s?.company_name ? <dd className="footer__company-name">{s.company_name}</dd> : null}
            {s?.company_reg_number ? (
              <>
                <dt>{t('shell.footer.regNumber')}</dt>
                <dd>{s.company_reg_number}</dd>
              </>
            ) : null}
            {s?.company_address ? (
              <>
                <dt>{t('shell.footer.address')}</dt>
                <dd>{localizeAddress(s.company_address, languages.numberLocale)}</dd>
              </>
            ) : null}
            {s?.requisites ? (
              <>
                <dt>{t('shell.footer.requisites')}</dt>
                <dd>{localizeRequisites(s.requisites, t('shell.footer.vatId'))}</dd>
              </>
            ) : null}
            {supportEmail ? (
              <>
                <dt>{t('shell.footer.supportEmail')}</dt>
                <dd>
                  <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
                </dd>
              </>
            ) : null}
          </dl>
        </section>
        <nav className="footer__pages" aria-label={t('shell.footer.pages')}>
          <h2 className="footer__heading">{t('shell.footer.pages')}</h2>
          <ul>
            {pages.pages.map((page) => (
              <li key={page.id}>
                <Link to={pages.pathOf(page)}>{page.title}</Link>
              </li>
            ))}
            <li>
              <Link to={paths.developers}>{t('shell.footer.developers')}</Link>
            </li>
          </ul>
        </nav>
        <div className="footer__side">
          <LanguageSelect />
          {pages.socialLinks.length > 0 ? (
            <nav aria-label={t('shell.footer.social')}>
              <h2 className="footer__heading">{t('shell.footer.social')}</h2>
              <ul className="footer__social" data-testid="social-links">
                {pages.socialLinks.map((link) => (
                  <li key={link.id}>
                    <a href={link.url} target="_blank" rel="noopener noreferrer">
                      {link.title}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <div>
            <h2 className="footer__heading">{t('shell.footer.weAccept')}</h2>
            <CardBrands label={t('shell.footer.weAccept')} />
          </div>
        </div>
      </div>
      <div className="container footer__bottom">
        <p>
          {/* An operator's own copyright text is shown as written; the default one is said in the reader's language. */}
          {s?.copyright && s.copyright !== DEFAULT_COPYRIGHT
            ? s.copyright
            : t('shell.footer.copyrightOf', {
                year: new Date().getFullYear(),
                company: s?.company_name || t('shell.app.name'),
              })}
        </p>
      </div>
    </footer>
  );
});
