import { observer } from 'mobx-react-lite';
import { Check } from 'lucide-react';
import type { JobName } from '@imagestudio/contracts';
import { ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import type { MessageKey } from '../../lib/i18n';
import { useStore } from '../../stores';
import { tokensLabel } from '../../lib/tokens-label';
import { ExamplePair, type ExampleName } from '../../components/example-pairs';
import './tools.css';

interface LandingConfig {
  tool: JobName;
  prefix: 'generate' | 'removeBg' | 'upscale';
  toolPath: string;
  /** A pair made by our own models; generation shows an example prompt instead (no photograph). */
  example: ExampleName | null;
  /** Settings key of the tool's price. */
  priceKey: 'image_generation_price' | 'background_removal_price' | 'upscale_price';
  unitKey: MessageKey;
}

const CONFIG: Record<JobName, LandingConfig> = {
  generate: {
    tool: 'generate',
    prefix: 'generate',
    toolPath: paths.services.generateImage,
    example: null,
    priceKey: 'image_generation_price',
    unitKey: 'client-tools.landing.unitImage',
  },
  'remove-background': {
    tool: 'remove-background',
    prefix: 'removeBg',
    toolPath: paths.services.removeBackground,
    example: 'chelsea',
    priceKey: 'background_removal_price',
    unitKey: 'client-tools.landing.unitPhoto',
  },
  upscale: {
    tool: 'upscale',
    prefix: 'upscale',
    toolPath: paths.services.upscale,
    example: 'motorcycle',
    priceKey: 'upscale_price',
    unitKey: 'client-tools.landing.unitPhoto',
  },
};

/** Public landing page of a tool: what it does, an example, the price, and a call to action. */
export const ToolLandingPage = observer(function ToolLandingPage({ tool }: { tool: JobName }) {
  const { auth, settings, t } = useStore();
  const c = CONFIG[tool];
  const key = (suffix: string) => `client-tools.landing.${c.prefix}.${suffix}` as MessageKey;
  const price = Number(settings.settings?.[c.priceKey] ?? 1);
  return (
    <div className="container landing">
      <section className="landing__hero">
        <div className="landing__copy">
          <h1>{t(key('title'))}</h1>
          <p className="landing__text">{t(key('text'))}</p>
          <ul className="landing__points">
            {(['point1', 'point2', 'point3'] as const).map((p) => (
              <li key={p}>
                <Check aria-hidden="true" />
                {t(key(p))}
              </li>
            ))}
          </ul>
          <p className="landing__price" data-testid="landing-price">
            {t('client-tools.landing.price', { cost: tokensLabel(t, price), unit: t(c.unitKey) })}
          </p>
          <div className="landing__cta">
            {auth.isAuthenticated ? (
              <ButtonLink to={c.toolPath} size="lg">
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
        </div>
        {c.example ? (
          <ExamplePair name={c.example} />
        ) : (
          <figure className="landing__prompt" data-testid="example-prompt">
            <figcaption>{t('client-tools.landing.generate.exampleLabel')}</figcaption>
            <blockquote>{t('client-tools.landing.generate.examplePrompt')}</blockquote>
          </figure>
        )}
      </section>
    </div>
  );
});
