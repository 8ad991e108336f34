import { observer } from 'mobx-react-lite';
import { Eraser, Maximize2, Sparkles, type LucideIcon } from 'lucide-react';
import type { JobName } from '@imagestudio/contracts';
import { ButtonLink, Card } from '../../components';
import { TOOL_PAGES } from '../../config/paths';
import { useStore } from '../../stores';
import { SERVICE_LABELS } from '../../config/paths';
import { workingTools, worksKey } from './availability';
import './availability.css';

const ICONS: Record<JobName, LucideIcon> = { generate: Sparkles, 'remove-background': Eraser, upscale: Maximize2 };

/** A tool page when the tool cannot run: what is switched off, what works, and links to the tools that work. */
export const ToolUnavailable = observer(function ToolUnavailable({ tool }: { tool: JobName }) {
  const { tools, t } = useStore();
  const working = workingTools(tools.status).filter((other) => other !== tool);
  return (
    <div className="container tool-page">
      <header className="tool-page__header">
        <h1>{t(SERVICE_LABELS[tool])}</h1>
      </header>
      <Card className="tool-unavailable" data-testid="tool-switched-off">
        <p className="tool-unavailable__text" role="status">
          {t(`client-availability.off.${tool}`)} {t(worksKey(working))}
        </p>
        {working.length > 0 ? (
          <nav className="tool-unavailable__links" aria-label={t('client-availability.linksLabel')}>
            {working.map((other) => {
              const Icon = ICONS[other];
              return (
                <ButtonLink key={other} to={TOOL_PAGES[other]} variant="secondary" icon={<Icon aria-hidden="true" />}>
                  {t(SERVICE_LABELS[other])}
                </ButtonLink>
              );
            })}
          </nav>
        ) : null}
      </Card>
    </div>
  );
});
