import { endpoints, type AdminJobDetail } from '@imagestudio/contracts';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { ConfirmDialog } from '../../components';
import { formatCurrency, setNumberLocale } from '../../lib/format';
import { profileFixture } from '../../test/fixtures';
import { FakeApi, okPayload, withCatalog } from '../../test/fake-api';
import { renderApp } from '../../test/render-app';

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('auth_session', '1');
  document.cookie = 'cookie_consent=true; path=/';
});

const job: AdminJobDetail = {
  id: 'j1',
  user_id: 'u1',
  user_email: 'ada@example.com',
  tool: 'upscale',
  status: 'succeeded',
  cost: 1,
  refunded: false,
  created_at: '2026-11-24T10:00:00.000Z',
  finished_at: '2026-11-24T10:00:05.000Z',
  batch_id: null,
  params: {},
  progress: 100,
  stage: null,
  error: null,
  error_detail: null,
  input: null,
  result: null,
  timings: { queued_s: 1, running_s: 4, total_s: 5, stages_ms: null },
  provider: 'cpu',
  started_at: '2026-11-24T10:00:01.000Z',
  cancel_requested_at: null,
  queue: null,
  ledger: [],
};

function operatorApi() {
  return withCatalog(new FakeApi())
    .route(endpoints.account.isAuth, { status: 200, data: { status: 'OK', authenticated: true, emailVerified: true } })
    .route(endpoints.account.profile, okPayload(profileFixture({ role: 'admin' })))
    .route(endpoints.admin.job, okPayload(job), { id: 'j1' });
}

describe('console refund dialog', () => {
  it('counts "1 token", says truly what the customer sees, and checks the reason before anything is sent', async () => {
    const api = operatorApi();
    renderApp('/admin/jobs/j1', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund this job' });
    expect(dialog.textContent).toContain("The job's cost of 1 token goes back");
    expect(dialog.textContent).not.toMatch(/sees it in their token activity/);
    expect(dialog.textContent).toContain('shows the refund of the job');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText('Please give a reason of at least 3 characters.')).toBeTruthy();
    expect(api.calls(endpoints.admin.refundJob)).toHaveLength(0);
    expect(screen.queryByTestId('reauth-form')).toBeNull();
  });
});

describe('console texts', () => {
  it('a confirm dialog with its own paragraph renders no <p> inside a <p>', () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      render(
        <ConfirmDialog
          open
          title="Cancel"
          confirmLabel="Yes"
          cancelLabel="No"
          onConfirm={jest.fn()}
          onCancel={jest.fn()}
        >
          <p>The job stops.</p>
        </ConfirmDialog>,
      );
      expect(document.querySelector('p p')).toBeNull();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });

  it("money in the language's currency style", () => {
    try {
      setNumberLocale('de');
      expect(formatCurrency(8.5, 'EUR').replace(/\u00a0/g, ' ')).toBe('8,50 €');
      setNumberLocale('en');
      expect(formatCurrency(8.5, 'EUR')).toBe('€8.50');
    } finally {
      setNumberLocale('en');
    }
  });
});
