import { observer } from 'mobx-react-lite';
import type { JobName } from '@imagestudio/contracts';
import { ButtonLink, Card } from '../../components';
import { menuLabel, TOOLS } from '../../config/tools';
import { useStore } from '../../stores';
import { workingTools, worksSentence } from './availability';
import './availability.css';

/** The card saying a tool cannot run: what is switched off, what works, and links to the tools that work. */
export const ToolOffCard = observer(function ToolOffCard({ tool }: { tool: JobName }) {
  const { tools, t } = useStore();
  const working = workingTools(tools.status).filter((other) => other !== tool);
  return (
    <Card className="tool-unavailable" data-testid="tool-switched-off">
      <p className="tool-unavailable__text" role="status">
        {t(`client-tools.off.${tool}`)} {worksSentence(t, working)}
      </p>
      {working.length > 0 ? (
        <nav className="tool-unavailable__links" aria-label={t('client-availability.linksLabel')}>
          {working.map((other) => {
            const { icon: Icon, path } = TOOLS[other];
            return (
              <ButtonLink key={other} to={path} variant="secondary" icon={<Icon aria-hidden="true" />}>
                {t(menuLabel(other))}
              </ButtonLink>
            );
          })}
        </nav>
      ) : null}
    </Card>
  );
});

/** A tool page when the tool cannot run: its title over the card. */
export const ToolUnavailable = observer(function ToolUnavailable({ tool }: { tool: JobName }) {
  const { t } = useStore();
  return (
    <div className="container tool-page">
      <header className="tool-page__header">
        <h1>{t(menuLabel(tool))}</h1>
      </header>
      <ToolOffCard tool={tool} />
    </div>
  );
});
