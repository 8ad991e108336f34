import type { ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { Button } from '../../components';
import { useStore } from '../../stores';
import { OutcomeMessage } from './outcome-message';
import type { ChangeOutcome } from './stores/changes';
import { useAdmin } from './use-admin';

/**
 * The foot of each catalog form: the form's own extra buttons, Save (busy while any catalog change is under
 * way), and what the last change ended with.
 */
export const CatalogSaveFooter = observer(function CatalogSaveFooter({
  outcome,
  children,
}: {
  outcome: ChangeOutcome | null;
  children?: ReactNode;
}) {
  const { t } = useStore();
  const { catalog } = useAdmin();
  return (
    <>
      <div className="admin-form__actions">
        {children}
        <Button type="submit" busy={catalog.busy}>
          {t('client-admin.save')}
        </Button>
      </div>
      <OutcomeMessage outcome={outcome} done={t('client-admin.saved')} />
    </>
  );
});
