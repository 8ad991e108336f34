import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Navigate } from 'react-router';
import { PageSpinner } from '../../components';
import { TOOLS } from '../../config/tools';
import { useStore } from '../../stores';
import { firstAvailableTool } from './availability';

/** /services (where "Start creating" and "Go to Services" point): the first tool that can run now. */
export const ServicesIndex = observer(function ServicesIndex() {
  const { tools, t } = useStore();
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    let live = true;
    void tools.loadStatus().finally(() => live && setAsked(true));
    return () => {
      live = false;
    };
  }, [tools]);
  if (!asked) return <PageSpinner label={t('client-tools.common.checkingStatus')} />;
  return <Navigate to={TOOLS[firstAvailableTool(tools.status)].path} replace />;
});
