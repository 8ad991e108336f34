import { localizeAddress, localizeRequisites } from './company-details';

describe("company details in the reader's language", () => {
  it('names the country at the end of the address in the locale, and leaves other addresses as written', () => {
    expect(localizeAddress('Friedrichstraße 123, 10117 Berlin, Germany', 'de-DE')).toBe(
      'Friedrichstraße 123, 10117 Berlin, Deutschland',
    );
    expect(localizeAddress('Friedrichstraße 123, 10117 Berlin, Germany', 'en-US')).toBe(
      'Friedrichstraße 123, 10117 Berlin, Germany',
    );
    expect(localizeAddress('1 Main St, Springfield', 'de-DE')).toBe('1 Main St, Springfield');
    expect(localizeAddress('No comma here', 'de-DE')).toBe('No comma here');
  });

  it('puts the VAT label of the language into the requisites', () => {
    expect(localizeRequisites('IBAN DE89 · BIC COBADEFFXXX · VAT ID DE123456789', 'USt-IdNr.')).toBe(
      'IBAN DE89 · BIC COBADEFFXXX · USt-IdNr. DE123456789',
    );
  });
});
