import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useStore } from '../../stores';
import type { StaticPageView } from '@imagestudio/contracts';

const pagePath = (page: StaticPageView | undefined) =>
  page ? (page.slug ? `/${page.slug}` : paths.staticPageById(page.id)) : null;

/** "I accept the Terms and Conditions and the Privacy Policy", each a link to its static page in a new tab. */
export const TermsAcceptanceLabel = observer(function TermsAcceptanceLabel() {
  const { pages, t } = useStore();
  const terms = pagePath(pages.termsPage);
  const privacy = pagePath(pages.privacyPage);
  const link = (to: string | null, text: string) =>
    to ? (
      <Link to={to} target="_blank" rel="noopener">
        {text}
      </Link>
    ) : (
      text
    );
  return (
    <>
      {t('client-payments.terms.prefix')} {link(terms, t('client-payments.terms.terms'))}{' '}
      {t('client-payments.terms.and')} {link(privacy, t('client-payments.terms.privacy'))}
    </>
  );
});
