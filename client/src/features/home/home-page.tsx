import { observer } from 'mobx-react-lite';
import { Coins, Infinity as InfinityIcon, LayoutGrid, MonitorSmartphone, Sparkles } from 'lucide-react';
import { ButtonLink, Card } from '../../components';
import { paths } from '../../config/paths';
import type { MessageKey } from '../../lib/i18n';
import { useStore } from '../../stores';
import { imageToolsOnly, useToolStatus } from '../availability';
import { Bundles } from './bundles';
import './home.css';
import { ExamplePair, type ExampleName } from '../../components/example-pairs';

/** The strip shows pairs our own models made, never the raw photos. */
const EXAMPLES: ExampleName[] = ['chelsea', 'motorcycle', 'coffee'];
/** One shape for the three cards, so they stand equally high whatever each photo's own shape. */
const STRIP_ASPECT = 4 / 3;
/**
 * How wide a card's images are drawn: a third of the 1200 px content width less the gaps (389 px), half the
 * phone's width; a 3:2 photo covering the 4:3 card is drawn 9/8 as wide as the card.
 */
const STRIP_SIZES = '(max-width: 767px) 56vw, (max-width: 1247px) 38vw, 440px';

const STEPS = [
  { n: 1, title: 'shell.home.steps.ignite.title', text: 'shell.home.steps.ignite.text' },
  { n: 2, title: 'shell.home.steps.refine.title', text: 'shell.home.steps.refine.text' },
  { n: 3, title: 'shell.home.steps.share.title', text: 'shell.home.steps.share.text' },
] as const;

const FEATURES = [
  { icon: LayoutGrid, title: 'shell.home.why.allInOne.title', text: 'shell.home.why.allInOne.text' },
  { icon: MonitorSmartphone, title: 'shell.home.why.adaptive.title', text: 'shell.home.why.adaptive.text' },
  { icon: InfinityIcon, title: 'shell.home.why.noExpiry.title', text: 'shell.home.why.noExpiry.text' },
  { icon: Coins, title: 'shell.home.why.freeTokens.title', text: 'shell.home.why.freeTokens.text' },
] as const;

/** The texts that promise prompts, and what they say instead while only the image tools run. */
const IMAGE_TOOLS_TEXTS: Partial<Record<MessageKey, MessageKey>> = {
  'shell.home.hero.title': 'shell.home.images.hero.title',
  'shell.home.hero.text': 'shell.home.images.hero.text',
  'shell.home.steps.ignite.text': 'shell.home.images.steps.ignite.text',
  'shell.home.steps.refine.text': 'shell.home.images.steps.refine.text',
  'shell.home.why.allInOne.text': 'shell.home.images.why.allInOne.text',
};

/**
 * Home: hero, three steps, token bundles, why-us features, closing call to action. It speaks only of the tools
 * live workers offer: with generation off it leads with background removal and upscaling.
 */
export const HomePage = observer(function HomePage() {
  const store = useStore();
  useToolStatus();
  const imagesOnly = imageToolsOnly(store.tools.status);
  const t = (key: MessageKey) => store.t((imagesOnly && IMAGE_TOOLS_TEXTS[key]) || key);
  return (
    <>
      <section className="hero">
        <div className="container hero__inner">
          <h1 className="hero__title">{t('shell.home.hero.title')}</h1>
          <p className="hero__text">{t('shell.home.hero.text')}</p>
          <div className="hero__actions">
            <ButtonLink to={paths.services.root} size="lg" icon={<Sparkles aria-hidden="true" />}>
              {t('shell.home.hero.cta')}
            </ButtonLink>
            <ButtonLink to={paths.pricing} size="lg" variant="secondary">
              {t('shell.home.hero.secondary')}
            </ButtonLink>
          </div>
          <ul className="hero__strip" aria-label={t('shell.home.hero.examples')}>
            {EXAMPLES.map((name) => (
              <li key={name}>
                <ExamplePair name={name} aspect={STRIP_ASPECT} sizes={STRIP_SIZES} lazy />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="container home-section" aria-labelledby="steps-title">
        <h2 id="steps-title" className="home-section__title">
          {t('shell.home.steps.title')}
        </h2>
        <ol className="steps">
          {STEPS.map((step) => (
            <li key={step.n}>
              <Card className="step">
                <span className="step__number" aria-hidden="true">
                  {step.n}
                </span>
                <h3>{t(step.title)}</h3>
                <p>{t(step.text)}</p>
              </Card>
            </li>
          ))}
        </ol>
      </section>

      <Bundles />

      <section className="container home-section" aria-labelledby="why-title">
        <h2 id="why-title" className="home-section__title">
          {t('shell.home.why.title')}
        </h2>
        <ul className="features">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="feature">
                <Icon aria-hidden="true" className="feature__icon" />
                <h3>{t(title)}</h3>
                <p>{t(text)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section className="container home-section">
        <Card raised className="closing-cta">
          <h2>{t('shell.home.cta.title')}</h2>
          <p>{t('shell.home.cta.text')}</p>
          <ButtonLink to={paths.services.root} size="lg">
            {t('shell.home.cta.button')}
          </ButtonLink>
        </Card>
      </section>
    </>
  );
});
