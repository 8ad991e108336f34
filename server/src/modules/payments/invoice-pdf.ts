import PDFDocument from 'pdfkit';
import type { ReceiptDocument } from '@imagestudio/contracts';

const MARGIN = 56;
const MUTED = '#5b6270';

/**
 * The receipt as a PDF invoice (A4, PDF's built-in Helvetica: nothing to ship, and it covers the Latin-1 and
 * euro characters of the languages we bill in): the title and invoice number, order and date, the seller and
 * buyer blocks side by side, then the lines with the VAT line and the total. Drawn from the same document as
 * the receipt page, so the two always say the same.
 */
export function invoicePdf(doc: ReceiptDocument, paidAt: Date): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: doc.lang,
    info: {
      Title: `${doc.title} ${doc.invoice.value}`.trim(),
      Author: doc.seller.lines[0] ?? '',
      CreationDate: paidAt,
    },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const width = pdf.page.width - 2 * MARGIN;
  pdf.font('Helvetica-Bold').fontSize(22).fillColor('black').text(doc.title);
  pdf.moveDown(0.5);
  pdf.font('Helvetica').fontSize(10);
  for (const { label, value } of [doc.invoice, doc.order, doc.date]) {
    pdf.fillColor(MUTED).text(`${label}: `, { continued: true }).fillColor('black').text(value);
  }
  pdf.moveDown(1.5);

  // Seller left, buyer right, from the same top line.
  const top = pdf.y;
  const column = (x: number, block: { heading: string; lines: string[] }) => {
    pdf
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('black')
      .text(block.heading, x, top, { width: width / 2 - 12 });
    pdf.font('Helvetica').fontSize(10);
    for (const line of block.lines) pdf.text(line, { width: width / 2 - 12 });
    return pdf.y;
  };
  const bottom = Math.max(column(MARGIN, doc.seller), column(MARGIN + width / 2, doc.buyer));
  pdf.y = bottom + 28;

  for (const row of doc.rows) {
    const strong = row.key === 'total';
    if (strong) {
      pdf
        .moveTo(MARGIN, pdf.y)
        .lineTo(MARGIN + width, pdf.y)
        .strokeColor('#c8ccd4')
        .stroke();
      pdf.y += 6;
    }
    const y = pdf.y;
    pdf.font(strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(strong ? 12 : 10);
    pdf.text(row.label, MARGIN, y, { width: width * 0.65 });
    const after = pdf.y;
    pdf.text(row.value, MARGIN + width * 0.65, y, { width: width * 0.35, align: 'right' });
    pdf.y = Math.max(after, pdf.y) + 6;
  }
  pdf.end();
  return done;
}
