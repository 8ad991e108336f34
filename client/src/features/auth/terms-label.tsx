import { Fragment, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useStore } from '../../stores';

/** "I accept the {terms} and the {privacy}" with links to the flagged static pages (new tab keeps the form). */
export const TermsLabel = observer(function TermsLabel() {
  const { pages, t } = useStore();
  const link = (page: ReturnType<typeof pages.bySlug>, text: string): ReactNode =>
    page ? (
      <Link to={pages.pathOf(page)} target="_blank" rel="noopener">
        {text}
      </Link>
    ) : (
      text
    );
  const parts: Record<string, ReactNode> = {
    terms: link(pages.termsPage, t('shell.auth.register.terms')),
    privacy: link(pages.privacyPage, t('shell.auth.register.privacy')),
  };
  // Split the translated sentence on its placeholders so each language keeps its own word order.
  const pieces = t('shell.auth.register.accept').split(/(\{terms\}|\{privacy\})/);
  return (
    <>
      {pieces.map((piece, i) => {
        const name = piece.replace(/[{}]/g, '');
        return <Fragment key={i}>{piece.startsWith('{') && name in parts ? parts[name] : piece}</Fragment>;
      })}
    </>
  );
});
