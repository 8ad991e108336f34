/**
 * One paid deposit's receipt as a finished document in the reader's language: every label translated, every
 * amount and date already formatted for their locale. The receipt page and the PDF invoice both draw this, so
 * they never disagree.
 */
export interface ReceiptDocument {
  lang: string;
  title: string;
  invoice: { label: string; value: string };
  order: { label: string; value: string };
  date: { label: string; value: string };
  seller: { heading: string; lines: string[] };
  buyer: { heading: string; lines: string[] };
  /** What was bought, how it was paid, subtotal, VAT, total and any refund, in that order. */
  rows: { key: 'item' | 'method' | 'subtotal' | 'vat' | 'total' | 'refunded'; label: string; value: string }[];
}
