import { render, screen } from '@testing-library/react';
import { StoreProvider } from '../../stores';
import { FakeApi, makeStore } from '../../test/fake-api';
import { ToolLayout } from './tool-layout';

/** A page on ToolLayout that says nothing itself: its canvas marks the outcome, as JobStatus and results do. */
function Page({ activity, outcome }: { activity: string; outcome: string | null }) {
  return (
    <ToolLayout
      title="Erase"
      lead="Paint over it"
      activity={activity}
      controls={<button type="button">Run</button>}
      canvas={
        outcome ? (
          <p tabIndex={-1} data-run-outcome="" data-testid="outcome">
            {outcome}
          </p>
        ) : null
      }
    />
  );
}

describe('ToolLayout without a status line of its page', () => {
  it('says how a followed run ended, once, and focuses it', () => {
    const { store } = makeStore(new FakeApi());
    const view = render(
      <StoreProvider store={store}>
        <Page activity="running" outcome={null} />
      </StoreProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('');
    view.rerender(
      <StoreProvider store={store}>
        <Page activity="cancelled" outcome="Cancelled. Your tokens have been refunded." />
      </StoreProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Cancelled. Your tokens have been refunded.');
    expect(document.activeElement).toBe(screen.getByTestId('outcome'));
    expect(screen.getByTestId('tool-canvas').getAttribute('aria-live')).toBeNull();
  });

  it('says "Done" over a result, and nothing for a run it did not see end', () => {
    const { store } = makeStore(new FakeApi());
    const view = render(
      <StoreProvider store={store}>
        <Page activity="idle" outcome={null} />
      </StoreProvider>,
    );
    view.rerender(
      <StoreProvider store={store}>
        <Page activity="succeeded" outcome={null} />
      </StoreProvider>,
    );
    // Opened already finished: the heading is there, the focus and the status line stay as they were.
    const heading = screen.getByRole('heading', { name: 'Result' });
    expect(document.activeElement).not.toBe(heading);
    expect(screen.getByRole('status').textContent).toBe('');
    view.rerender(
      <StoreProvider store={store}>
        <Page activity="queued" outcome={null} />
      </StoreProvider>,
    );
    view.rerender(
      <StoreProvider store={store}>
        <Page activity="succeeded" outcome={null} />
      </StoreProvider>,
    );
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Result' }));
    expect(screen.getByRole('status').textContent).toBe('Done');
  });
});
