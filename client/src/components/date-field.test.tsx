import { useState } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { setNumberLocale } from '../lib/format';
import { DateField, dayOf, isoDay } from './date-field';

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField label="From" value={value} onChange={setValue} emptyText="Any day" clearLabel="Clear From" />
      <output data-testid="value">{value}</output>
    </>
  );
}

describe('DateField', () => {
  afterEach(() => setNumberLocale('en'));

  it('reads YYYY-MM-DD as a local calendar day and writes it back unchanged', () => {
    const day = dayOf('2026-03-01')!;
    expect([day.getFullYear(), day.getMonth(), day.getDate(), day.getHours()]).toEqual([2026, 2, 1, 0]);
    expect(isoDay(day)).toBe('2026-03-01');
    expect(dayOf('1.3.2026')).toBeUndefined();
    expect(dayOf('')).toBeUndefined();
  });

  it('shows the empty text, opens a calendar on the chosen month and picks a day from it', () => {
    render(<Harness initial="2026-11-25" />);
    const field = screen.getByRole('button', { name: 'From Nov 25, 2026' });
    fireEvent.click(field);
    const calendar = screen.getByRole('dialog', { name: 'From' });
    expect(within(calendar).getByText('November 2026')).toBeTruthy();
    fireEvent.click(within(calendar).getByRole('button', { name: /November 3rd, 2026/ }));
    expect(screen.getByTestId('value').textContent).toBe('2026-11-03');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'From Nov 3, 2026' })).toBeTruthy();
    // Clearing empties the field.
    fireEvent.click(screen.getByRole('button', { name: 'Clear From' }));
    expect(screen.getByTestId('value').textContent).toBe('');
    expect(screen.getByRole('button', { name: 'From Any day' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear From' })).toBeNull();
  });

  it('closes on Escape without changing the day', () => {
    render(<Harness initial="2026-11-25" />);
    fireEvent.click(screen.getByRole('button', { name: /^From/ }));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('value').textContent).toBe('2026-11-25');
  });

  it('speaks the site language: German date style, month names and Monday first', () => {
    setNumberLocale('de');
    render(<Harness initial="2026-11-25" />);
    fireEvent.click(screen.getByRole('button', { name: 'From 25.11.2026' }));
    const calendar = screen.getByRole('dialog', { name: 'From' });
    expect(within(calendar).getByText('November 2026')).toBeTruthy();
    const weekdays = [...calendar.querySelectorAll('.rdp-weekday')].map((h) => h.getAttribute('aria-label'));
    expect(weekdays).toHaveLength(7);
    expect(weekdays[0]).toBe('Montag');
  });
});
