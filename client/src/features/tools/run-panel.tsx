import { observer } from 'mobx-react-lite';
import { Link, useLocation } from 'react-router';
import type { JobName } from '@imagestudio/contracts';
import { Button } from '../../components';
import { paths } from '../../config/paths';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { tokensLabel } from '../../lib/tokens-label';

interface RunPanelProps {
  tool: JobName;
  label: string;
  /** The quoted cost; undefined until the quote has answered. */
  cost: number | undefined;
  /** A reason the run cannot start yet (no image, invalid input), shown under the button. */
  blocker?: string | null;
  /** Disabled for a reason shown elsewhere (the upload's own error). */
  disabled?: boolean;
  onRun(): void;
}

/**
 * Cost, balance and the run button ("Remove background - 1 token"), with the reasons a run cannot start:
 * tool unavailable, email not verified, not enough tokens (link to pricing with the missing amount).
 */
export const RunPanel = observer(function RunPanel({ tool, label, cost, blocker, disabled: disabledByPage, onRun }: RunPanelProps) {
  const { tools, profile, auth, tokenPricing, t } = useStore();
  const location = useLocation();
  const run = tools.runs[tool];
  const available = tools.available(tool);
  const short = cost !== undefined && profile.profile !== null && profile.balance < cost;
  const problem = run.problem;
  const missing = problem?.kind === 'insufficient' ? problem.missing : cost !== undefined ? Math.max(0.1, cost - profile.balance) : 0;
  // the purchase offered is one checkout accepts: never below the minimum top-up
  const offer = tokenPricing.purchaseOffer(missing);
  const disabled = available === false || !auth.emailVerified || short || run.busy || Boolean(blocker) || Boolean(disabledByPage);
  const here = `${location.pathname}${location.search}`;

  return (
    <div className="run-panel">
      <p className="run-panel__balance" data-testid="tool-balance">
        {t('client-tools.common.balance', { n: formatTokens(profile.balance) })}
      </p>
      {available === false ? (
        <p className="notice notice--warning" role="status" data-testid="tool-unavailable">
          {problem?.kind === 'unavailable' ? problem.message : t('client-tools.run.unavailable')}
        </p>
      ) : null}
      {!auth.emailVerified ? (
        <p className="notice notice--warning">
          {t('client-tools.run.unverified')}{' '}
          <Link to={`${paths.emailVerification}?redirect=${encodeURIComponent(here)}`}>{t('client-tools.run.verifyLink')}</Link>
        </p>
      ) : null}
      {short || problem?.kind === 'insufficient' ? (
        <p className="notice notice--warning" data-testid="not-enough-tokens">
          {problem?.kind === 'insufficient' ? problem.message : t('client-tools.run.notEnoughTokens')}{' '}
          <Link to={`${paths.pricing}?tokens=${offer}`} data-testid="buy-offer">
            {t('client-tools.run.buyMissing', { n: formatTokens(offer) })}
          </Link>
        </p>
      ) : null}
      {problem && (problem.kind === 'invalid' || problem.kind === 'other' || (problem.kind === 'unavailable' && available !== false)) ? (
        <p className="notice notice--error" role="alert">
          {problem.message}
        </p>
      ) : null}
      <Button block size="lg" onClick={onRun} disabled={disabled} busy={run.phase === 'submitting'} busyText={t('client-tools.common.starting')}>
        {cost === undefined ? label : t('client-tools.common.runWithCost', { label, cost: tokensLabel(t, cost) })}
      </Button>
      {blocker ? <p className="run-panel__blocker">{blocker}</p> : null}
    </div>
  );
});
