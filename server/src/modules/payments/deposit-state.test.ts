import { DEPOSIT_STATUSES, type DepositStatus } from '@imagestudio/contracts';
import { isTerminal, nextStatus, TERMINAL_STATUSES, type PaymentOutcome } from './deposit-state';

/** The deposit state machine: what each provider report does to a deposit in each state. */
const OUTCOMES: Record<PaymentOutcome['kind'], PaymentOutcome> = {
  paid: { kind: 'paid', amountMinor: 1000, currency: 'EUR', paymentIntentId: 'pi_1' },
  processing: { kind: 'processing', paymentIntentId: 'pi_1' },
  failed: { kind: 'failed', error: 'card_declined' },
  cancelled: { kind: 'cancelled' },
  expired: { kind: 'expired' },
};

/** Walks a deposit from `start` through `reports`, keeping the status when a report changes nothing. */
function walk(start: DepositStatus, reports: PaymentOutcome['kind'][]): DepositStatus {
  return reports.reduce((status, kind) => nextStatus(status, OUTCOMES[kind]) ?? status, start);
}

describe('deposit states', () => {
  it('has exactly Success, Error, Cancelled and Expired as terminal states', () => {
    expect([...TERMINAL_STATUSES].sort()).toEqual(['Cancelled', 'Error', 'Expired', 'Success']);
    const open = DEPOSIT_STATUSES.filter((s) => !isTerminal(s));
    expect(open.length).toBeGreaterThan(0);
    expect(open).toContain('Processing');
  });

  it('never moves a terminal deposit, whatever is reported later', () => {
    for (const status of TERMINAL_STATUSES)
      for (const outcome of Object.values(OUTCOMES)) expect(nextStatus(status, outcome)).toBeNull();
  });

  it('moves an open deposit to the state each report names', () => {
    const open = DEPOSIT_STATUSES.filter((s) => !isTerminal(s) && s !== 'Processing');
    for (const status of open) {
      expect(nextStatus(status, OUTCOMES.paid)).toBe('Success');
      expect(nextStatus(status, OUTCOMES.processing)).toBe('Processing');
      expect(nextStatus(status, OUTCOMES.failed)).toBe('Error');
      expect(nextStatus(status, OUTCOMES.cancelled)).toBe('Cancelled');
      expect(nextStatus(status, OUTCOMES.expired)).toBe('Expired');
    }
  });

  it('does not move Processing to Processing again (a repeated async notice changes nothing)', () => {
    expect(nextStatus('Processing', OUTCOMES.processing)).toBeNull();
    expect(nextStatus('Processing', OUTCOMES.paid)).toBe('Success');
    expect(nextStatus('Processing', OUTCOMES.failed)).toBe('Error');
  });

  it('keeps the first final answer when reports arrive out of order', () => {
    const open = DEPOSIT_STATUSES.find((s) => !isTerminal(s) && s !== 'Processing') as DepositStatus;
    // A late "expired" after the payment, or a replayed "paid" after an async failure, changes nothing.
    expect(walk(open, ['processing', 'paid', 'expired'])).toBe('Success');
    expect(walk(open, ['processing', 'failed', 'paid'])).toBe('Error');
    expect(walk(open, ['cancelled', 'paid'])).toBe('Cancelled');
    expect(walk(open, ['processing', 'processing'])).toBe('Processing');
  });
});
