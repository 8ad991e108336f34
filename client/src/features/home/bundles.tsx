import { observer } from 'mobx-react-lite';
import { Gift, SlidersHorizontal } from 'lucide-react';
import { Badge, ButtonLink, Card, Skeleton } from '../../components';
import { paths } from '../../config/paths';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { packText } from '../../lib/catalog-text';

/** Token bundles: the free bundle, up to three paid packs, and the custom plan. */
export const Bundles = observer(function Bundles() {
  const { packs, currencies, auth, languages, t, initState } = useStore();
  const free = packs.freePacks[0];
  // The free pack's texts in the reader's language, like the paid packs' (catalog.packs.free.*).
  const freeText = free ? packText(languages.catalogText, free) : null;
  const paid = packs.paidPacks.slice(0, 3);
  return (
    <section className="container home-section" aria-labelledby="bundles-title">
      <h2 id="bundles-title" className="home-section__title">
        {t('shell.home.bundles.title')}
      </h2>
      <p className="home-section__lead">{t('shell.home.bundles.text')}</p>
      <ul className="bundles">
        <li>
          <Card className="bundle bundle--free">
            <Gift aria-hidden="true" className="bundle__icon" />
            <h3>{freeText?.title ?? t('shell.home.bundles.freeBundle.title')}</h3>
            <p className="bundle__price">
              <Badge tone="success">{t('shell.home.bundles.free')}</Badge>
            </p>
            <p>{freeText?.description || t('shell.home.bundles.freeBundle.text')}</p>
            <p className="bundle__credits">
              {t('shell.home.bundles.tokens', { n: formatTokens(free?.credits ?? 10) })}
            </p>
            <ButtonLink to={auth.isAuthenticated ? paths.services.root : paths.register} variant="secondary" block>
              {t('shell.home.bundles.getStarted')}
            </ButtonLink>
          </Card>
        </li>
        {paid.length === 0 && (packs.loading || initState !== 'ready')
          ? [0, 1, 2].map((i) => (
              <li key={`skeleton-${i}`}>
                <Card className="bundle">
                  <Skeleton height={24} width="60%" />
                  <Skeleton height={32} width="40%" />
                  <Skeleton height={48} />
                </Card>
              </li>
            ))
          : paid.map((pack) => (
              <li key={pack.id}>
                <Card className="bundle">
                  <h3>{packText(languages.catalogText, pack).title}</h3>
                  <p className="bundle__price">{currencies.format(pack.price)}</p>
                  {pack.description ? <p>{packText(languages.catalogText, pack).description}</p> : null}
                  <p className="bundle__credits">{t('shell.home.bundles.tokens', { n: formatTokens(pack.credits) })}</p>
                  <ButtonLink to={`${paths.pricing}?pack=${encodeURIComponent(String(pack.id))}`} block>
                    {t('shell.home.bundles.choose')}
                  </ButtonLink>
                </Card>
              </li>
            ))}
        <li>
          <Card className="bundle bundle--custom">
            <SlidersHorizontal aria-hidden="true" className="bundle__icon" />
            <h3>{t('shell.home.bundles.custom.title')}</h3>
            <p>{t('shell.home.bundles.custom.text')}</p>
            <ButtonLink to={paths.pricing} variant="secondary" block>
              {t('shell.home.bundles.custom.cta')}
            </ButtonLink>
          </Card>
        </li>
      </ul>
    </section>
  );
});
