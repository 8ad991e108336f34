import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import type { JobName } from '@imagestudio/contracts';
import { Badge } from '../../components';
import { useStore } from '../../stores';
import './availability.css';

/**
 * A Services menu entry's label: the tool's name, and when no live worker offers it a muted name, an "Off"
 * badge and, for screen readers, "(switched off right now)". The link stays: the tool's page says why.
 */
export const ServiceAvailabilityMark = observer(function ServiceAvailabilityMark({
  tool,
  label,
}: {
  tool: JobName;
  label: string;
}) {
  const { tools, t } = useStore();
  if (tools.available(tool) !== false) return <>{label}</>;
  return (
    <span className="service-link--off" data-testid={`service-off-${tool}`}>
      <span aria-hidden="true">{label}</span>
      <span className="visually-hidden">{t('client-availability.menuOff', { tool: label })}</span>
      <span className="service-link__badge" aria-hidden="true">
        <Badge tone="warning">{t('client-availability.menuBadge')}</Badge>
      </span>
    </span>
  );
});

/** Asks for the tool status when a Services menu opens for a signed-in user, so its marks are current. */
export function useServicesStatus(open: boolean): void {
  const { tools, auth } = useStore();
  const signedIn = auth.isAuthenticated;
  useEffect(() => {
    if (open && signedIn) void tools.loadStatus();
  }, [open, signedIn, tools]);
}
