import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useParams } from 'react-router';
import { PageSpinner } from '../../components';
import { useStore } from '../../stores';
import type { PageResult } from './stores/pages-store';
import { NotFoundPage } from '../message-pages';
import { ToolsOffNotice } from '../availability';
import './static-page.css';

/** Loads one page by id and shows a spinner, the error text, Not Found, or the title and HTML content. */
const StaticPageView = observer(function StaticPageView({ id }: { id: string }) {
  const { pages, languages, t } = useStore();
  // Pages come in the reader's language (the API picks it from lang_id): a change of language fetches again.
  const key = `${id}:${languages.activeId ?? ''}`;
  const [result, setResult] = useState<{ key: string; value: PageResult } | null>(null);
  useEffect(() => {
    let active = true;
    void pages.fetchPage({ id }).then((value) => {
      if (active) setResult({ key, value });
    });
    return () => {
      active = false;
    };
  }, [id, key, pages]);
  if (!result || result.key !== key) return <PageSpinner label={t('shell.staticPage.loading')} />;
  const value = result.value;
  if ('missing' in value) return <NotFoundPage />;
  if ('error' in value) {
    return (
      <section className="container static-page">
        <p className="static-page__error" role="alert">
          {value.error}
        </p>
      </section>
    );
  }
  const content = value.page.content ?? '';
  // Pages written with their own heading show it; the title is added only to pages without one.
  const hasOwnTitle = /^\s*<h1[\s>]/i.test(content);
  return (
    <article className="container static-page">
      {hasOwnTitle ? null : <h1>{value.page.title}</h1>}
      {/* The API sanitises page HTML when it is saved (catalog module), so it is rendered as is. */}
      <div className="static-page__content" dangerouslySetInnerHTML={{ __html: content }} />
    </article>
  );
});

/** /{slug}: only slugs among the fetched pages are pages; anything else is Not Found. */
export const StaticPageBySlug = observer(function StaticPageBySlug() {
  const { pages, t } = useStore();
  const { slug = '' } = useParams();
  if (!pages.loaded) return <PageSpinner label={t('shell.staticPage.loading')} />;
  const known = pages.bySlug(slug);
  if (!known) return <NotFoundPage />;
  // About describes every tool: while one is off on this server it says so above the operator's text.
  return slug === 'about' ? (
    <>
      <div className="container">
        <ToolsOffNotice />
      </div>
      <StaticPageView id={String(known.id)} />
    </>
  ) : (
    <StaticPageView id={String(known.id)} />
  );
});

/** /static-page/{id}: pages that have no slug. */
export function StaticPageById() {
  const { id = '' } = useParams();
  return <StaticPageView id={id} />;
}
