import { useEffect, useId, useRef, useState } from 'react';
import { CalendarDays, X } from 'lucide-react';
import { DayPicker } from 'react-day-picker';
import { de, enUS } from 'react-day-picker/locale';
import 'react-day-picker/style.css';
import { formatDate, numberLocale } from '../lib/format';
import './date-field.css';

interface DateFieldProps {
  label: string;
  /** The chosen day as YYYY-MM-DD (what the API takes), or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** What the field says while no day is chosen ("Any"). */
  emptyText: string;
  /** The accessible name of the button that empties the field ("Clear From"). */
  clearLabel: string;
}

/** YYYY-MM-DD of a calendar day picked in the browser's own time zone. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The calendar day of YYYY-MM-DD at local midnight (new Date('2026-11-25') would be UTC midnight). */
export function dayOf(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}

/**
 * A day chosen from a calendar, shown in the site language's date style ("Nov 25, 2026", "25.11.2026") with the
 * language's month and day names and first day of the week. The browser's own date field would show its own
 * locale's pattern (mm/dd/yyyy in an American browser on the German site). The calendar (react-day-picker) is
 * keyboard-driven: arrows move by day and week, Page Up/Down by month, Enter picks, Escape closes.
 */
export function DateField({ label, value, onChange, emptyText, clearLabel }: DateFieldProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const selected = dayOf(value);
  const locale = numberLocale().startsWith('de') ? de : enUS;

  useEffect(() => {
    if (!open) return;
    // A click anywhere else closes the calendar, as a select's list does.
    const away = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div
      className="field date-field"
      ref={root}
      onKeyDown={(e) => {
        if (open && e.key === 'Escape') {
          e.stopPropagation();
          close();
        }
      }}
    >
      <span className="field__label" id={`${id}-label`}>
        {label}
      </span>
      <div className="date-field__row">
        <button
          ref={button}
          type="button"
          className="input date-field__button"
          aria-labelledby={`${id}-label ${id}-value`}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          <span id={`${id}-value`} className={value ? undefined : 'date-field__empty'}>
            {value ? formatDate(`${value}T00:00:00`) : emptyText}
          </span>
          <CalendarDays aria-hidden="true" />
        </button>
        {value ? (
          <button
            type="button"
            className="date-field__clear"
            aria-label={clearLabel}
            onClick={() => {
              onChange('');
              button.current?.focus();
            }}
          >
            <X aria-hidden="true" />
          </button>
        ) : null}
      </div>
      {open ? (
        <div className="date-field__popover" role="dialog" aria-labelledby={`${id}-label`}>
          <DayPicker
            mode="single"
            locale={locale}
            selected={selected}
            defaultMonth={selected}
            autoFocus
            onSelect={(day) => {
              if (day) onChange(isoDay(day));
              close();
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
