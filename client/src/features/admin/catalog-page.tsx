import { useEffect, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Badge, Button, Card, Select, Skeleton, TextField } from '../../components';
import { useStore } from '../../stores';
import type { ChangeOutcome } from '../../stores/admin/changes';
import type { AdminPackView } from '@imagestudio/contracts';
import { OutcomeMessage } from './outcome-message';
import { useAdmin } from './use-admin';

/** Runs a change from a form and keeps its outcome for the message under it. */
function useChange(): [ChangeOutcome | null, (run: () => Promise<ChangeOutcome>) => Promise<ChangeOutcome>] {
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  const run = async (change: () => Promise<ChangeOutcome>) => {
    const result = await change();
    setOutcome(result);
    return result;
  };
  return [outcome, run];
}

const onSubmit = (run: () => void) => (event: FormEvent) => {
  event.preventDefault();
  run();
};

/**
 * /admin/catalog: what `npm run admin` edits (settings, packs, price tiers, currencies, static pages), checked
 * by the server with the CLI's rules; the CLI's warnings (a pack dearer than the same tokens bought as a custom
 * amount) show at the top after every change.
 */
export const CatalogPage = observer(function CatalogPage() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  useEffect(() => {
    void catalog.load();
  }, [catalog]);
  if (!catalog.catalog) {
    return (
      <Card className="admin-panel">
        <h1>{t('client-admin.catalog.title')}</h1>
        {catalog.error ? <p role="alert">{catalog.error}</p> : <Skeleton height={240} />}
      </Card>
    );
  }
  return (
    <div className="admin-stack">
      <Card className="admin-panel">
        <h1>{t('client-admin.catalog.title')}</h1>
        <p className="admin-muted">{t('client-admin.catalog.lead')}</p>
        {catalog.warnings.length > 0 ? (
          <div className="admin-warnings" role="status" data-testid="catalog-warnings">
            <h2>{t('client-admin.catalog.warnings')}</h2>
            <ul>
              {catalog.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </Card>
      <SettingsSection />
      <PacksSection />
      <TiersSection />
      <CurrenciesSection />
      <PagesSection />
    </div>
  );
});

const SettingsSection = observer(function SettingsSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const settings = catalog.catalog?.settings ?? {};
  const keys = Object.keys(settings);
  const [key, setKey] = useState(keys[0] ?? '');
  const [value, setValue] = useState('');
  const [outcome, run] = useChange();
  useEffect(() => {
    const current = settings[key];
    setValue(typeof current === 'string' ? current : JSON.stringify(current));
    // Only when another setting is picked: a typed value is not overwritten by a reload.
  }, [key]);
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.settings')}</h2>
      <form className="admin-form" onSubmit={onSubmit(() => void run(() => catalog.setSetting(key, value)))}>
        <Select
          label={t('client-admin.catalog.setting')}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          options={keys.map((k) => ({ value: k, label: k }))}
        />
        <TextField
          label={t('client-admin.catalog.value')}
          help={t('client-admin.catalog.valueHelp')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <div className="admin-form__actions">
          <Button type="submit" busy={catalog.busy}>
            {t('client-admin.save')}
          </Button>
        </div>
        <OutcomeMessage outcome={outcome} done={t('client-admin.saved')} />
      </form>
    </Card>
  );
});

const emptyPack = { title: '', price: '', credits: '', description: '' };

const PacksSection = observer(function PacksSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const packs = catalog.catalog?.packs ?? [];
  const [editing, setEditing] = useState<AdminPackView | null>(null);
  const [fields, setFields] = useState(emptyPack);
  const [outcome, run] = useChange();
  const edit = (pack: AdminPackView | null) => {
    setEditing(pack);
    setFields(
      pack
        ? { title: pack.title, price: pack.price, credits: String(pack.credits), description: pack.description }
        : emptyPack,
    );
  };
  const save = async () => {
    const result = await run(() => (editing ? catalog.editPack(editing.id, fields) : catalog.addPack(fields)));
    if (result.ok) edit(null);
  };
  const field = (name: keyof typeof emptyPack) => ({
    value: fields[name],
    onChange: (e: { target: { value: string } }) => setFields({ ...fields, [name]: e.target.value }),
  });
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.packs')}</h2>
      <div className="admin-table-wrap">
        <table className="admin-table" data-testid="catalog-packs">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('client-admin.catalog.packTitle')}</th>
              <th scope="col">{t('client-admin.catalog.price')}</th>
              <th scope="col">{t('client-admin.catalog.credits')}</th>
              <th scope="col">{t('client-admin.col.status')}</th>
              <th scope="col">{t('client-admin.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {packs.map((pack, i) => (
              <tr key={pack.id}>
                <td>{pack.id}</td>
                <td>{pack.title}</td>
                <td>{pack.price} EUR</td>
                <td>{pack.credits}</td>
                <td>{pack.hidden ? <Badge tone="warning">{t('client-admin.catalog.hidden')}</Badge> : null}</td>
                <td>
                  <div className="admin-actions">
                    <Button size="sm" variant="ghost" onClick={() => edit(pack)}>
                      {t('client-admin.edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => void run(() => catalog.editPack(pack.id, { hidden: !pack.hidden }))}
                    >
                      {t(pack.hidden ? 'client-admin.catalog.show' : 'client-admin.catalog.hide')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === 0}
                      aria-label={t('client-admin.catalog.moveUp', { title: pack.title })}
                      onClick={() => void run(() => catalog.movePack(pack.id, -1))}
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={i === packs.length - 1}
                      aria-label={t('client-admin.catalog.moveDown', { title: pack.title })}
                      onClick={() => void run(() => catalog.movePack(pack.id, 1))}
                    >
                      ↓
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form className="admin-form" onSubmit={onSubmit(() => void save())} data-testid="pack-form">
        <h3>{editing ? t('client-admin.catalog.editPack', { id: editing.id }) : t('client-admin.catalog.addPack')}</h3>
        <div className="admin-filters">
          <TextField label={t('client-admin.catalog.packTitle')} required {...field('title')} />
          <TextField label={t('client-admin.catalog.priceEur')} inputMode="decimal" required {...field('price')} />
          <TextField label={t('client-admin.catalog.credits')} inputMode="decimal" required {...field('credits')} />
          <TextField label={t('client-admin.catalog.description')} {...field('description')} />
        </div>
        <div className="admin-form__actions">
          {editing ? (
            <Button type="button" variant="secondary" onClick={() => edit(null)}>
              {t('client-admin.cancel')}
            </Button>
          ) : null}
          <Button type="submit" busy={catalog.busy}>
            {t('client-admin.save')}
          </Button>
        </div>
        <OutcomeMessage outcome={outcome} done={t('client-admin.saved')} />
      </form>
    </Card>
  );
});

const TiersSection = observer(function TiersSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const saved = catalog.catalog?.tiers ?? [];
  const [rows, setRows] = useState(() => saved.map((tier) => ({ min: String(tier.min), price: tier.price })));
  const [outcome, run] = useChange();
  const setRow = (i: number, change: Partial<{ min: string; price: string }>) =>
    setRows(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.tiers')}</h2>
      <p className="admin-muted">{t('client-admin.catalog.tiersLead')}</p>
      <form
        className="admin-form"
        onSubmit={onSubmit(() => void run(() => catalog.setTiers(rows)))}
        data-testid="tiers-form"
      >
        {rows.map((row, i) => (
          <div className="admin-filters" key={i}>
            <TextField
              label={t('client-admin.catalog.tierFrom', { n: i + 1 })}
              inputMode="decimal"
              value={row.min}
              onChange={(e) => setRow(i, { min: e.target.value })}
            />
            <TextField
              label={t('client-admin.catalog.tierPrice', { n: i + 1 })}
              inputMode="decimal"
              value={row.price}
              onChange={(e) => setRow(i, { price: e.target.value })}
            />
            <Button
              type="button"
              size="sm"
              variant="ghost"
              disabled={rows.length <= 1}
              onClick={() => setRows(rows.filter((_, j) => j !== i))}
            >
              {t('client-admin.remove')}
            </Button>
          </div>
        ))}
        <div className="admin-form__actions">
          <Button type="button" variant="secondary" onClick={() => setRows([...rows, { min: '', price: '' }])}>
            {t('client-admin.catalog.addTier')}
          </Button>
          <Button type="submit" busy={catalog.busy}>
            {t('client-admin.save')}
          </Button>
        </div>
        <OutcomeMessage outcome={outcome} done={t('client-admin.saved')} />
      </form>
    </Card>
  );
});

const CurrenciesSection = observer(function CurrenciesSection() {
  const { t } = useStore();
  const { catalog } = useAdmin();
  const currencies = catalog.catalog?.currencies ?? [];
  const [code, setCode] = useState('');
  const [rate, setRate] = useState('');
  const [symbol, setSymbol] = useState('');
  const [outcome, run] = useChange();
  return (
    <Card className="admin-panel">
      <h2>{t('client-admin.catalog.currencies')}</h2>
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('client-admin.catalog.code')}</th>
              <th scope="col">{t('client-admin.catalog.rate')}</th>
              <th scope="col">{t('client-admin.catalog.symbol')}</th>
              <th scope="col">{t('client-admin.col.status')}</th>
              <th scope="col">{t('client-admin.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {currencies.map((c) => (
              <tr key={c.code}>
                <td>{c.code}</td>
                <td>{c.rate}</td>
                <td>{c.symbol}</td>
                <td>
                  <div className="admin-badges">
                    {c.is_default ? <Badge tone="accent">{t('client-admin.catalog.default')}</Badge> : null}
                    {c.hidden ? <Badge tone="warning">{t('client-admin.catalog.hidden')}</Badge> : null}
                  </div>
                </td>
                <td>
                  <div className="admin-actions">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        setCode(c.code);
                        setRate(c.rate);
                        setSymbol(c.symbol);
                      }}
                    >
                      {t('client-admin.edit')}
                    </Button>
                    {!c.is_default ? (
                      <>
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => void run(() => catalog.setDefaultCurrency(c.code))}
                        >
                          {t('client-admin.catalog.makeDefault')}
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => void run(() => catalog.setCurrencyHidden(c.code, !c.hidden))}
                        >
                          {t(c.hidden ? 'client-admin.catalog.show' : 'client-admin.catalog.hide')}
                        </Button>
                      </>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form className="admin-form" onSubmit={onSubmit(() => void run(() => catalog.setCurrency(code, rate, symbol)))}>
        <div className="admin-filters">
          <TextField
            label={t('client-admin.catalog.code')}
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <TextField
            label={t('client-admin.catalog.rate')}
            help={t('client-admin.catalog.rateHelp')}
            inputMode="decimal"
            required
            value={rate}
            onChange={(e) => setRate(e.target.value)}
          />
          <TextField
            label={t('client-admin.catalog.symbol')}
            value={symbol}
            onChange={(e) => setSymbol(e.target.value)}
          />
        </div>
        <div className="admin-form__actions">
          <Button type="submit" busy={catalog.busy}>
            {t('client-admin.save')}
          </Button>
        </div>
        <OutcomeMessage outcome={outcome} done={t('client-admin.saved')} />
      </form>
    </Card>
  );
});

const PagesSection = observer(function PagesSection() {
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
        <div className="admin-form__actions">
          <Button type="submit" busy={catalog.busy}>
            {t('client-admin.save')}
          </Button>
        </div>
        <OutcomeMessage outcome={outcome} done={t('client-admin.saved')} />
      </form>
    </Card>
  );
});
