import { useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Card, Select, TextField } from '../../components';
import { useStore } from '../../stores';
import { onSubmit, useChange } from './catalog-forms';
import { CatalogSaveFooter } from './catalog-save-footer';
import { useAdmin } from './use-admin';

/** The static pages: pick one or start a new one, edit its title and HTML. */
export const PagesSection = observer(function PagesSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const pages = (catalog.catalog?.pages ?? []).filter((p) => p.slug);
  const [slug, setSlug] = useState('');
  const [title, setTitle] = useState('');
  const [html, setHtml] = useState('');
  const [outcome, run] = useChange();
  const pick = (picked: string) => {
    const page = pages.find((p) => p.slug === picked);
    setSlug(picked);
    setTitle(page?.title ?? '');
    setHtml(page?.html ?? '');
  };
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.pages')}</h2>
      <form className="admin-form" onSubmit={onSubmit(() => void run(() => catalog.savePage(slug, title, html)))}>
        <Select
          label={t('client-admin.catalog.page')}
          value={pages.some((p) => p.slug === slug) ? slug : ''}
          onChange={(e) => pick(e.target.value)}
          options={[
            { value: '', label: t('client-admin.catalog.newPage') },
            ...pages.map((p) => ({ value: p.slug!, label: `/${p.slug} — ${p.title}` })),
          ]}
        />
        <div className="admin-filters">
          <TextField
            label={t('client-admin.catalog.slug')}
            help={t('client-admin.catalog.slugHelp')}
            required
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
          />
          <TextField
            label={t('client-admin.catalog.pageTitle')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
        <label className="field">
          <span className="field__label">{t('client-admin.catalog.html')}</span>
          <textarea className="input admin-textarea" rows={10} value={html} onChange={(e) => setHtml(e.target.value)} />
        </label>
        <CatalogSaveFooter outcome={outcome} />
      </form>
    </Card>
  );
});
