import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../config/paths';
import { loginRedirectPath } from '../../lib/redirect';
import { useStore } from '../../stores';
import type { PackView } from '@imagestudio/contracts';
import { BuyTokensModal } from './buy-tokens-modal';
import { ConfirmInformationModal } from './confirm-information-modal';
import { CustomAmount } from './custom-amount';
import { PacksGrid } from './packs-grid';
import { PriceTiers } from './price-tiers';
import { DEFAULT_SLIDER_PERCENT, SLIDER_MAX_TOKENS, SLIDER_MIN_TOKENS, sliderTokens } from './slider-math';
import './pricing.css';

/** The choice a guest made before signing in travels in the query: ?pack=<id> or ?tokens=<n>. */
function initialTokens(params: URLSearchParams): number {
  const tokens = Number(params.get('tokens'));
  return params.has('tokens') && Number.isFinite(tokens) && tokens > 0
    ? Math.min(SLIDER_MAX_TOKENS, Math.max(SLIDER_MIN_TOKENS, Math.round(tokens * 10) / 10))
    : sliderTokens(DEFAULT_SLIDER_PERCENT);
}

/** /pricing: the custom-amount slider, the volume tiers and the packs; buying opens the two modals. */
export const PricingPage = observer(function PricingPage() {
  const { auth, currencies, tokenPricing, topUp, t } = useStore();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [customTokens, setCustomTokens] = useState(() => initialTokens(params));

  useEffect(() => {
    void tokenPricing.load();
  }, [tokenPricing, currencies.code]);

  // Leaving the page closes the purchase modals (they must not reappear on the next visit).
  useEffect(() => () => topUp.closeModals(), [topUp]);

  // Back from Login with a choice in the query: open Buy Tokens for it once, then drop the query.
  const packParam = params.get('pack');
  const tokensParam = params.get('tokens');
  useEffect(() => {
    if (!auth.isAuthenticated || (packParam === null && tokensParam === null)) return;
    if (packParam !== null) topUp.selectPack(packParam);
    else topUp.selectTokens(Number(tokensParam));
    topUp.openBuyModal();
    setParams({}, { replace: true });
  }, [auth.isAuthenticated, packParam, tokensParam, topUp, setParams]);

  const buy = (choice: { pack: PackView } | { tokens: number }) => {
    const query = 'pack' in choice ? `pack=${encodeURIComponent(String(choice.pack.id))}` : `tokens=${choice.tokens}`;
    if (!auth.isAuthenticated) {
      navigate(loginRedirectPath(`${paths.pricing}?${query}`));
      return;
    }
    if ('pack' in choice) topUp.selectPack(choice.pack.id);
    else topUp.selectTokens(choice.tokens);
    topUp.openBuyModal();
  };

  const firstTier = tokenPricing.tiers[0];
  return (
    <div className="container pricing">
      <header className="pricing__header">
        <h1>{t('client-payments.pricing.title')}</h1>
        <p className="pricing__lead">{t('client-payments.pricing.lead')}</p>
        {firstTier ? (
          <p className="pricing__initial" data-testid="initial-price">
            {t('client-payments.pricing.initialPrice', { price: tokenPricing.formatPerToken(firstTier.price, 3) })}
          </p>
        ) : null}
      </header>
      <section className="pricing__custom" aria-label={t('client-payments.pricing.custom.title')}>
        <CustomAmount tokens={customTokens} onTokensChange={setCustomTokens} onBuy={(tokens) => buy({ tokens })} />
        <PriceTiers />
      </section>
      <section className="pricing__packs" aria-labelledby="packs-title">
        <h2 id="packs-title">{t('client-payments.pricing.packs.title')}</h2>
        <PacksGrid highlightId={auth.isAuthenticated ? null : packParam} onChoose={(pack) => buy({ pack })} />
      </section>
      <BuyTokensModal />
      <ConfirmInformationModal />
    </div>
  );
});
