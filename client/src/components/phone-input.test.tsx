import { useState } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { PhoneInput } from './phone-input';
import { interpretPhone, type PhoneValue } from './phone-logic';

const allowed = new Set(['DE', 'US']);

describe('interpretPhone', () => {
  it('parses a national number for the chosen country', () => {
    const { value, unsupported } = interpretPhone('0151 23456789', 'DE', allowed);
    expect(unsupported).toBe(false);
    expect(value).toMatchObject({
      phoneCountryCode: '49',
      nationalNumber: '15123456789',
      isValid: true,
      e164: '+4915123456789',
    });
  });

  it('detects the country from a "+" prefix and rejects one outside the list', () => {
    expect(interpretPhone('+1 201 555 0123', 'DE', allowed)).toMatchObject({ country: 'US', unsupported: false });
    expect(interpretPhone('+33 6 12 34 56 78', 'DE', allowed)).toMatchObject({ country: 'FR', unsupported: true });
  });

  it('keeps at most 25 characters and marks invalid numbers', () => {
    expect(interpretPhone('1'.repeat(40), 'DE', allowed).value.phone).toHaveLength(25);
    expect(interpretPhone('123', 'DE', allowed).value.isValid).toBe(false);
  });
});

function Harness({ onUnsupported, detect }: { onUnsupported: () => void; detect?: () => Promise<string | null> }) {
  const [state, setState] = useState<{ raw: string; country?: string; value?: PhoneValue }>({ raw: '' });
  return (
    <>
      <PhoneInput
        label="Phone"
        placeholder="Enter a phone number"
        countryLabel="Country code"
        value={state.raw}
        country={state.country}
        countries={[
          { iso: 'DE', title: 'Germany' },
          { iso: 'US', title: 'United States' },
        ]}
        onChange={(raw, country, value) => setState({ raw, country, value })}
        onUnsupported={onUnsupported}
        detectCountry={detect}
      />
      <output data-testid="valid">{String(state.value?.isValid ?? false)}</output>
    </>
  );
}

describe('<PhoneInput>', () => {
  it('is a tel input with its placeholder and a 25 character limit, offering only listed countries', () => {
    render(<Harness onUnsupported={jest.fn()} />);
    const input = screen.getByLabelText('Phone');
    expect(input).toHaveProperty('type', 'tel');
    expect(input.getAttribute('maxlength')).toBe('25');
    expect(input.getAttribute('placeholder')).toBe('Enter a phone number');
    const options = Array.from(screen.getByLabelText('Country code').querySelectorAll('option')).map((o) => o.value);
    expect(options).toEqual(['', 'DE', 'US']);
  });

  it('clears a number of an unsupported country and reports it', () => {
    const onUnsupported = jest.fn();
    render(<Harness onUnsupported={onUnsupported} />);
    const input = screen.getByLabelText('Phone') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '+33 6 12 34 56 78' } });
    expect(onUnsupported).toHaveBeenCalledTimes(1);
    expect(input.value).toBe('');
  });

  it('switches the country to the one a "+" number names and validates it', () => {
    render(<Harness onUnsupported={jest.fn()} />);
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '+1 201 555 0123' } });
    expect((screen.getByLabelText('Country code') as HTMLSelectElement).value).toBe('US');
    expect(screen.getByTestId('valid').textContent).toBe('true');
  });

  it('preselects the country from the lookup, only when it is supported', async () => {
    render(<Harness onUnsupported={jest.fn()} detect={() => Promise.resolve('DE')} />);
    await act(async () => undefined);
    expect((screen.getByLabelText('Country code') as HTMLSelectElement).value).toBe('DE');
  });

  it('ignores a looked-up country outside the list', async () => {
    render(<Harness onUnsupported={jest.fn()} detect={() => Promise.resolve('FR')} />);
    await act(async () => undefined);
    expect((screen.getByLabelText('Country code') as HTMLSelectElement).value).toBe('');
  });
});

describe('<PhoneInput> with a number that names its country', () => {
  it('shows the country of a "+49" number, not a guessed or older "+1 United States", and reports it', () => {
    const onChange = jest.fn();
    render(
      <PhoneInput
        label="Phone"
        placeholder="Enter a phone number"
        countryLabel="Country code"
        value="+49 30 12345678"
        country="US"
        countries={[
          { iso: 'DE', title: 'Germany' },
          { iso: 'US', title: 'United States' },
        ]}
        onChange={onChange}
        onUnsupported={jest.fn()}
        detectCountry={() => Promise.resolve('US')}
      />,
    );
    const select = screen.getByLabelText('Country code') as HTMLSelectElement;
    expect(select.value).toBe('DE');
    expect(select.selectedOptions[0]!.textContent).toBe('+49 Germany');
    expect(onChange).toHaveBeenCalledWith('+49 30 12345678', 'DE', expect.objectContaining({ phoneCountryCode: '49' }));
  });
});
