import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The text of a PDF, read with pdf.js (npm's unpdf), so no system tool is needed: each line of a page as one
 * line, its pieces left to right with one space where there is a gap between them (a label and its amount in
 * another column read "Total (EUR) €11.90"), pages apart by a form feed.
 */
export function pdfText(pdf: Buffer): string {
  try {
    return execFileSync(process.execPath, [path.join(__dirname, 'pdf-text.child.mjs')], {
      input: pdf,
      stdio: 'pipe',
      maxBuffer: 16 * 1024 * 1024,
    }).toString('utf8');
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString('utf8').trim();
    throw new Error(`pdfText: the PDF could not be read${stderr ? `: ${stderr}` : ''}`, { cause: err });
  }
}
