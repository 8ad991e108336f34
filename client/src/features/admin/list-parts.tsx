import type { FormEvent, ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { Button, Skeleton } from '../../components';
import { DateField } from '../../components/date-field';
import { useStore } from '../../stores';
import { Pager } from '../job-lists';

/** A console list's search form: its fields, and a Search button that goes back to page 1. */
export function FilterForm({ onSearch, children }: { onSearch(): void; children: ReactNode }) {
  const { t } = useStore();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <form className="admin-filters" role="search" onSubmit={submit}>
      {children}
      <Button type="submit" size="sm">
        {t('client-admin.search')}
      </Button>
    </form>
  );
}

interface ListView {
  loaded: boolean;
  loading: boolean;
  error: string | null;
  items: unknown[];
  total: number;
  page: number;
  lastPage: number;
  load(page: number): Promise<void>;
}

/** The rows of a console list (or its loading, error and empty states) and the pager below them. */
export const ListBody = observer(function ListBody({ list, children }: { list: ListView; children: ReactNode }) {
  const { t } = useStore();
  if (!list.loaded && list.loading) return <Skeleton height={160} />;
  if (list.error && list.items.length === 0)
    return (
      <p className="admin-alert" role="alert">
        {list.error}
      </p>
    );
  if (list.items.length === 0) return <p className="admin-muted">{t('client-admin.empty')}</p>;
  return (
    <>
      <p className="admin-muted">{t('client-admin.total', { n: list.total })}</p>
      <div className="admin-table-wrap">{children}</div>
      <Pager page={list.page} last={list.lastPage} onPage={(page) => void list.load(page)} />
    </>
  );
});

/** A list filter's day ("From", "Before"): a calendar in the site language's date style, empty for any day. */
export function DayFilter({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  const { t } = useStore();
  return (
    <DateField
      label={label}
      value={value}
      onChange={onChange}
      emptyText={t('client-admin.filter.anyDay')}
      clearLabel={t('client-admin.filter.clearDay', { field: label })}
    />
  );
}
