import { PENDING_CHECK_EVERY_MS, PENDING_FIRST_CHECK_MS, startPendingChecks } from './pending-checks';

afterEach(() => jest.useRealTimers());

describe('pending page checks (after 5 s, then every 30 s)', () => {
  it('checks first after 5 s, then every 30 s', () => {
    jest.useFakeTimers();
    const check = jest.fn();
    startPendingChecks(check);
    jest.advanceTimersByTime(PENDING_FIRST_CHECK_MS - 1);
    expect(check).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(PENDING_CHECK_EVERY_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(PENDING_CHECK_EVERY_MS * 3);
    expect(check).toHaveBeenCalledTimes(5);
  });

  it('stopping before the first check or after it leaves no timer behind', () => {
    jest.useFakeTimers();
    const early = jest.fn();
    startPendingChecks(early)();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(PENDING_FIRST_CHECK_MS * 10);
    expect(early).not.toHaveBeenCalled();

    const late = jest.fn();
    const stop = startPendingChecks(late);
    jest.advanceTimersByTime(PENDING_FIRST_CHECK_MS + PENDING_CHECK_EVERY_MS);
    expect(late).toHaveBeenCalledTimes(2);
    stop();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(PENDING_CHECK_EVERY_MS * 5);
    expect(late).toHaveBeenCalledTimes(2);
  });
});
