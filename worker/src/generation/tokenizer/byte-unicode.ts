/**
 * GPT-2/CLIP byte-level alphabet: every byte maps to a printable unicode character, so BPE can work on
 * strings without whitespace or control characters. Printable Latin-1 bytes map to themselves; the other
 * bytes are shifted to code points 256 and up, in byte order.
 */
function buildByteToChar(): string[] {
  const printable = (b: number): boolean =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const table: string[] = new Array<string>(256);
  let shifted = 0;
  for (let b = 0; b < 256; b += 1) {
    table[b] = String.fromCodePoint(printable(b) ? b : 256 + shifted++);
  }
  return table;
}

/** byte value -> its one-character stand-in. */
export const BYTE_TO_CHAR: readonly string[] = buildByteToChar();

const encoder = new TextEncoder();

/** UTF-8 bytes of `text`, each replaced by its byte-level stand-in. */
export function toByteLevel(text: string): string {
  let out = '';
  for (const b of encoder.encode(text)) out += BYTE_TO_CHAR[b];
  return out;
}
