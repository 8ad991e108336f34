import { pdfText } from './pdf-text';

/**
 * A one-page PDF written out by hand: each piece of text is drawn at its own position in Helvetica with
 * WinAnsi encoding (as pdfkit writes the invoices), so the test knows exactly where everything stands.
 */
function pdfWith(pieces: { x: number; y: number; text: string }[]): Buffer {
  const draw = pieces
    .map((p) => `BT /F1 10 Tf ${p.x} ${p.y} Td <${Buffer.from(p.text, 'latin1').toString('hex')}> Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('pdfText', () => {
  it('reads the lines top to bottom, each left to right with a space across a gap', () => {
    const pdf = pdfWith([
      // Drawn out of order: the amount first, then the lines above it.
      { x: 400, y: 700, text: '\x801.90' },
      { x: 56, y: 700, text: 'VAT 19% (EUR)' },
      { x: 56, y: 760, text: 'Rechnungsempf\xe4nger' },
      // Two pieces that touch (pdfkit's "label: " then its value) stay one word apart, not two.
      { x: 56, y: 730, text: 'Invoice no.: ' },
      { x: 56 + 59.5, y: 730, text: 'INV-2026-000001' },
    ]);
    expect(pdfText(pdf).trim().split('\n')).toEqual([
      'Rechnungsempfänger',
      'Invoice no.: INV-2026-000001',
      'VAT 19% (EUR) €1.90',
    ]);
  });

  it('fails on a file that is not a PDF', () => {
    expect(() => pdfText(Buffer.from('not a pdf'))).toThrow(
      /could not be read:[^]*InvalidPDFException: Invalid PDF structure/,
    );
  });
});
