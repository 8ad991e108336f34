import { useEffect, useId, useRef } from 'react';
import { LIMITS_UI } from '../config/constants';
import { countryOfNumber, dialPrefix, interpretPhone, type PhoneValue } from './phone-logic';
import './field.css';
import './phone-input.css';

export interface PhoneCountry {
  iso: string;
  title: string;
}

interface PhoneInputProps {
  label: string;
  placeholder: string;
  countryLabel: string;
  value: string;
  country: string | undefined;
  countries: PhoneCountry[];
  onChange: (raw: string, country: string | undefined, value: PhoneValue) => void;
  /** Called when the typed number belongs to a country outside `countries`; the value is cleared. */
  onUnsupported: () => void;
  /** Preselects the country once (a guess from the browser); never awaited by the page. */
  detectCountry?: () => Promise<string | null>;
  error?: string | null;
  required?: boolean;
  id?: string;
}

/** Country dropdown (supported countries only) plus a tel input of at most 25 characters. */
export function PhoneInput({
  label,
  placeholder,
  countryLabel,
  value,
  country,
  countries,
  onChange,
  onUnsupported,
  detectCountry,
  error,
  required,
  id,
}: PhoneInputProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = error ? `${inputId}-error` : undefined;
  const allowed = new Set(countries.map((c) => c.iso.toUpperCase()));
  // A number that names its country ("+49 ...", filled in from the profile) decides the dropdown: a guess from
  // the visitor's address or an older choice must not show "+1 United States" beside a German number.
  const numberCountry = countryOfNumber(value, allowed);
  const shownCountry = numberCountry ?? country;
  const latest = useRef({ country: shownCountry, allowed, value, onChange });
  latest.current = { country: shownCountry, allowed, value, onChange };

  // The form keeps the country the number names, so what it sends matches what the dropdown shows.
  useEffect(() => {
    if (!numberCountry || numberCountry === country) return;
    const now = latest.current;
    now.onChange(now.value, numberCountry, interpretPhone(now.value, numberCountry, now.allowed).value);
  }, [numberCountry, country]);

  useEffect(() => {
    if (!detectCountry) return;
    let active = true;
    void detectCountry().then((iso) => {
      const now = latest.current;
      if (!active || !iso || now.country || (now.allowed.size > 0 && !now.allowed.has(iso))) return;
      now.onChange(now.value, iso, interpretPhone(now.value, iso, now.allowed).value);
    });
    return () => {
      active = false;
    };
  }, [detectCountry]);

  const handleText = (raw: string) => {
    const result = interpretPhone(raw, shownCountry, allowed);
    if (result.unsupported) {
      onUnsupported();
      onChange('', shownCountry, interpretPhone('', shownCountry, allowed).value);
      return;
    }
    const nextCountry = result.country && allowed.has(result.country) ? result.country : shownCountry;
    onChange(result.value.phone, nextCountry, result.value);
  };

  const handleCountry = (iso: string) => {
    onChange(value, iso || undefined, interpretPhone(value, iso || undefined, allowed).value);
  };

  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        {label}
        {required ? (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        ) : null}
      </label>
      <div className="phone-input">
        <select
          className="input phone-input__country"
          aria-label={countryLabel}
          value={shownCountry ?? ''}
          onChange={(event) => handleCountry(event.target.value)}
        >
          <option value="">—</option>
          {countries.map((c) => (
            <option key={c.iso} value={c.iso.toUpperCase()}>
              {`${dialPrefix(c.iso)} ${c.title}`.trim()}
            </option>
          ))}
        </select>
        <input
          id={inputId}
          className="input"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={LIMITS_UI.phoneMaxLength}
          placeholder={placeholder}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-required={required || undefined}
          aria-describedby={errorId}
          onChange={(event) => handleText(event.target.value)}
        />
      </div>
      {error ? (
        <span id={errorId} className="field__error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
