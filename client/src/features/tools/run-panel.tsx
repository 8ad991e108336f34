import { useEffect, useRef, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useLocation } from 'react-router';
import type { JobName } from '@imagestudio/contracts';
import { Button, ConfirmDialog } from '../../components';
import { paths } from '../../config/paths';
import { formatTokens } from '../../lib/format';
import { useStore } from '../../stores';
import { tokensLabel } from '../../lib/tokens-label';
import type { RunProblem } from './stores/run-submit';

/** What the panel reads of a run: a single job (ToolRunStore) or a batch (BatchRunStore). */
export interface RunnerView {
  readonly phase: 'idle' | 'submitting' | 'tracking';
  readonly problem: RunProblem | null;
  readonly busy: boolean;
  /** A result is on screen: the button reads "Run again". */
  readonly hasResult: boolean;
  repeatsResult(fingerprint: string | null): boolean;
}

interface RunPanelProps {
  tool: JobName;
  label: string;
  /** The quoted cost; undefined until the quote has answered. */
  cost: number | undefined;
  /** A reason the run cannot start yet (no image, invalid input), shown under the button. */
  blocker?: string | null;
  /** Disabled for a reason shown elsewhere (the upload's own error). */
  disabled?: boolean;
  /**
   * The page's fingerprint of the image and options it would send now; running the same request again on
   * its result asks first (an identical run costs the same tokens for the same picture).
   */
  fingerprint?: string | null;
  /** The run the panel starts; the tool's single run unless a batch is chosen. */
  runner?: RunnerView;
  onRun(): void;
  /** Called as the customer follows "Buy N tokens" (the page keeps its selection for the way back). */
  onBuy?(): void;
}

/**
 * Cost, balance and the run button ("Remove background - 1 token"; "Run again - 1 token" once a result is
 * on screen, secondary to its Download), with the reasons a run cannot start:
 * tool unavailable, email not verified, not enough tokens (link to pricing with the missing amount).
 */
export const RunPanel = observer(function RunPanel({
  tool,
  label,
  cost,
  blocker,
  disabled: disabledByPage,
  fingerprint = null,
  runner,
  onRun,
  onBuy,
}: RunPanelProps) {
  const { tools, profile, auth, tokenPricing, t } = useStore();
  const [confirming, setConfirming] = useState(false);
  const panelRef = usePanelHeight();
  const location = useLocation();
  const run = runner ?? tools.runs[tool];
  const available = tools.available(tool);
  const short = cost !== undefined && profile.profile !== null && profile.balance < cost;
  const problem = run.problem;
  const missing =
    problem?.kind === 'insufficient' ? problem.missing : cost !== undefined ? Math.max(0.1, cost - profile.balance) : 0;
  // the purchase offered is one checkout accepts: never below the minimum top-up
  const offer = tokenPricing.purchaseOffer(missing);
  const disabled =
    available === false || !auth.emailVerified || short || run.busy || Boolean(blocker) || Boolean(disabledByPage);
  const here = `${location.pathname}${location.search}`;
  const again = run.hasResult;
  const text = again ? t('client-tools.common.runAgain') : label;
  const costText = cost === undefined ? '' : tokensLabel(t, cost);
  const press = () => {
    if (run.repeatsResult(fingerprint)) setConfirming(true);
    else onRun();
  };

  return (
    <div ref={panelRef} className="run-panel">
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
          <Link to={`${paths.emailVerification}?redirect=${encodeURIComponent(here)}`}>
            {t('client-tools.run.verifyLink')}
          </Link>
        </p>
      ) : null}
      {short || problem?.kind === 'insufficient' ? (
        <p className="notice notice--warning" data-testid="not-enough-tokens">
          {problem?.kind === 'insufficient' ? problem.message : t('client-tools.run.notEnoughTokens')}{' '}
          <Link to={`${paths.pricing}?tokens=${offer}`} data-testid="buy-offer" onClick={onBuy}>
            {t('client-tools.run.buyMissing', { n: formatTokens(offer) })}
          </Link>
        </p>
      ) : null}
      {problem &&
      (problem.kind === 'invalid' ||
        problem.kind === 'other' ||
        (problem.kind === 'unavailable' && available !== false)) ? (
        <p className="notice notice--error" role="alert">
          {problem.message}
        </p>
      ) : null}
      <Button
        block
        size="lg"
        variant={again ? 'secondary' : 'primary'}
        onClick={press}
        disabled={disabled}
        busy={run.phase === 'submitting'}
        busyText={t('client-tools.common.starting')}
        data-testid="run"
      >
        {cost === undefined ? text : t('client-tools.common.runWithCost', { label: text, cost: costText })}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('client-tools.rerun.title')}
        confirmLabel={t('client-tools.rerun.confirm', { cost: costText })}
        cancelLabel={t('client-tools.rerun.keep')}
        closeLabel={t('shell.common.close')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onRun();
        }}
      >
        {t('client-tools.rerun.body', { cost: costText })}
      </ConfirmDialog>
      {blocker ? <p className="run-panel__blocker">{blocker}</p> : null}
    </div>
  );
});

/**
 * Publishes the panel's height to its column as --run-panel-height: on a wide screen the panel sticks to the
 * window's bottom over the options, and tools.css keeps a focused option above it by that much (a notice or a
 * blocker line makes the panel taller, so the height is measured, not assumed).
 */
function usePanelHeight() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const panel = ref.current;
    const column = panel?.parentElement;
    if (!panel || !column || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      column.style.setProperty('--run-panel-height', `${Math.ceil(panel.getBoundingClientRect().height)}px`);
    });
    observer.observe(panel);
    return () => {
      observer.disconnect();
      column.style.removeProperty('--run-panel-height');
    };
  }, []);
  return ref;
}
