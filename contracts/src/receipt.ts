import type { z } from 'zod';
import type { receiptDocumentSchema } from './payment-schemas';

/**
 * One paid deposit's receipt as a finished document in the reader's language: every label translated, every
 * amount and date already formatted for their locale. The receipt page and the PDF invoice both draw this, so
 * they never disagree.
 */
export type ReceiptDocument = z.infer<typeof receiptDocumentSchema>;
