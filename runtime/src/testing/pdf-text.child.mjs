/**
 * Prints the text of the PDF on standard input, one line of the page per line of output (pdf-text.ts starts it).
 * unpdf ships pdf.js as an ES module only, which jest's CommonJS module system cannot load, so the reading runs
 * in a Node process of its own.
 */
import { extractTextItems } from 'unpdf';

/** Pieces whose baselines are this close (in points) stand on one line. */
const SAME_LINE = 2;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
let items;
try {
  ({ items } = await extractTextItems(new Uint8Array(Buffer.concat(chunks))));
} catch (err) {
  // One line for the test's failure message: pdf.js's stack points into its minified bundle.
  process.stderr.write(`${err.name}: ${err.message}\n`);
  process.exit(1);
}

const pages = items.map((pageItems) => {
  const lines = [];
  for (const item of pageItems) {
    // pdf.js reports the gap between two pieces as a piece of blanks; the gaps are measured below instead.
    if (item.str.trim() === '') continue;
    let line = lines.find((l) => Math.abs(l.y - item.y) <= SAME_LINE);
    if (!line) lines.push((line = { y: item.y, items: [] }));
    line.items.push(item);
  }
  // PDF's y grows upwards: the top line has the largest y.
  lines.sort((a, b) => b.y - a.y);
  return lines
    .map((line) => {
      line.items.sort((a, b) => a.x - b.x);
      let text = '';
      let end = null;
      for (const item of line.items) {
        // A gap wider than a fifth of the font size is a space (or a column) between the pieces.
        if (end !== null && item.x - end > item.fontSize / 5 && !text.endsWith(' ')) text += ' ';
        text += item.str;
        end = item.x + item.width;
      }
      return text;
    })
    .join('\n');
});
process.stdout.write(pages.join('\n\f\n') + '\n');
