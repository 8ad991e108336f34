import { observer } from 'mobx-react-lite';
import { Check } from 'lucide-react';
import { TOOL_PRICE_SETTINGS, type JobName } from '@imagestudio/contracts';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { TOOLS } from '../../config/tools';
import type { MessageKey } from '../../lib/i18n';
import { useStore } from '../../stores';
import { tokensLabel } from '../../lib/tokens-label';
import { ExamplePair } from '../../components/example-pairs';
import { ToolOffCard, useToolStatus } from '../availability';
import { LANDING_TEXTS } from './tool-entry';
import './tools.css';

/**
 * Public landing page of a tool: what it does, an example, the price, and a call to action; while no live
 * worker offers the tool, what is off and what works instead of the price and the sign-up call.
 */
export const ToolLandingPage = observer(function ToolLandingPage({ tool }: { tool: JobName }) {
  const { auth, settings, t, tools } = useStore();
  useToolStatus();
  const { path, landing } = TOOLS[tool];
  const key = (suffix: (typeof LANDING_TEXTS)[number]) => `client-tools.landing.${tool}.${suffix}` as const;
  // Only a tool without an example pair has an example prompt (config/tools.test.ts checks its texts exist).
  const promptKey = (suffix: 'exampleLabel' | 'examplePrompt') =>
    `client-tools.landing.${tool}.${suffix}` as MessageKey;
  const price = Number(settings.settings?.[TOOL_PRICE_SETTINGS[tool]] ?? 1);
  return (
    <div className="container landing">
      <section className="landing__hero">
        <div className="landing__copy">
          <h1>{t(key('title'))}</h1>
          <p className="landing__text">{t(key('text'))}</p>
          <ul className="landing__points">
            {LANDING_TEXTS.filter((p) => p.startsWith('point')).map((p) => (
              <li key={p}>
                <Check aria-hidden="true" />
                {t(key(p))}
              </li>
            ))}
          </ul>
          {tools.available(tool) === false ? (
            <ToolOffCard tool={tool} />
          ) : (
            <>
              <p className="landing__price" data-testid="landing-price">
                {t('client-tools.landing.price', { cost: tokensLabel(t, price), unit: t(landing.unit) })}
              </p>
              <div className="landing__cta">
                {auth.isAuthenticated ? (
                  <ButtonLink to={path} size="lg">
                    {t('client-tools.landing.ctaSignedIn')}
                  </ButtonLink>
                ) : (
                  <ButtonLink to={paths.register} size="lg">
                    {t('client-tools.landing.ctaGuest')}
                  </ButtonLink>
                )}
                {!auth.isAuthenticated ? (
                  <span className="landing__free">{t('client-tools.landing.freeTokens')}</span>
                ) : null}
              </div>
            </>
          )}
        </div>
        {landing.example ? (
          <ExamplePair name={landing.example} />
        ) : (
          <figure className="landing__prompt" data-testid="example-prompt">
            <figcaption>{t(promptKey('exampleLabel'))}</figcaption>
            <blockquote>{t(promptKey('examplePrompt'))}</blockquote>
          </figure>
        )}
      </section>
    </div>
  );
});
