import fs from 'node:fs/promises';
import path from 'node:path';
import { BYTE_TO_CHAR, toByteLevel } from '../tokenizer/byte-unicode';

/** Prompt-like text the tiny vocabulary learns its merges from. */
const CORPUS = `
a photo of an astronaut riding a horse on the moon, highly detailed, cinematic lighting
a watercolor painting of a cat sitting in a garden with flowers, soft pastel colors
portrait of a woman, oil painting, renaissance style, dramatic light, masterpiece
a futuristic city at night, neon lights, rain, reflections, cyberpunk, 4k, trending
an old wooden boat on a calm lake at sunrise, mist, mountains in the background
a cute robot reading a book in a cozy library, digital art, warm colors
the best photo of the year: a red fox in the snow, wildlife photography, sharp focus
isometric illustration of a tiny house with a garden, low poly, pastel, clean lines
it's a beautiful day; they're walking the dog, we've seen the painting and I'll draw it
café crème brûlée, naïve façade, über straße, señor piñata, coöperation
`;

export interface TinyVocab {
  vocab: Record<string, number>;
  /** merges.txt lines, with the `#version` header CLIP's file has. */
  merges: string[];
}

/**
 * Learns a small CLIP-format BPE vocabulary from CORPUS: the 256 byte characters, the same with the
 * end-of-word marker, `merges` learned merges, then the start and end tokens (the layout of CLIP's vocab.json).
 */
export function buildTinyVocab(mergeCount = 300): TinyVocab {
  const words = new Map<string, number>();
  const pattern = /'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+/gu;
  for (const m of CORPUS.toLowerCase().matchAll(pattern)) {
    const w = toByteLevel(m[0]);
    words.set(w, (words.get(w) ?? 0) + 1);
  }
  const split = [...words].map(([w, n]) => {
    const s = Array.from(w);
    s[s.length - 1] += '</w>';
    return { symbols: s, count: n };
  });
  const merges: string[] = [];
  while (merges.length < mergeCount) {
    const pairs = new Map<string, number>();
    for (const { symbols, count } of split) {
      for (let i = 0; i < symbols.length - 1; i += 1) {
        const key = `${symbols[i]} ${symbols[i + 1]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + count);
      }
    }
    // Most frequent pair; ties go to the first seen, which is deterministic for a fixed corpus.
    let best: string | undefined;
    let bestCount = 0;
    for (const [key, count] of pairs) if (count > bestCount) [best, bestCount] = [key, count];
    if (!best) break;
    merges.push(best);
    const [a, b] = best.split(' ') as [string, string];
    for (const entry of split) {
      const next: string[] = [];
      for (let i = 0; i < entry.symbols.length; i += 1) {
        if (entry.symbols[i] === a && entry.symbols[i + 1] === b) {
          next.push(a + b);
          i += 1;
        } else next.push(entry.symbols[i]!);
      }
      entry.symbols = next;
    }
  }
  const tokens = [...BYTE_TO_CHAR, ...BYTE_TO_CHAR.map((c) => `${c}</w>`), ...merges.map((m) => m.replace(' ', ''))];
  tokens.push('<|startoftext|>', '<|endoftext|>');
  const vocab: Record<string, number> = {};
  tokens.forEach((t, i) => {
    if (vocab[t] === undefined) vocab[t] = i;
  });
  return { vocab, merges: ['#version: 0.2', ...merges] };
}

/**
 * Writes a diffusers `tokenizer/` folder (vocab.json, merges.txt, tokenizer_config.json, special_tokens_map.json).
 * `padToken` '!' is SD 2.x/Turbo's choice, '<|endoftext|>' SD 1.x's.
 */
export async function writeTinyTokenizer(dir: string, padToken = '!', mergeCount = 300): Promise<TinyVocab> {
  const tiny = buildTinyVocab(mergeCount);
  await fs.mkdir(dir, { recursive: true });
  const special = {
    bos_token: '<|startoftext|>',
    eos_token: '<|endoftext|>',
    unk_token: '<|endoftext|>',
    pad_token: padToken,
  };
  await Promise.all([
    fs.writeFile(path.join(dir, 'vocab.json'), JSON.stringify(tiny.vocab)),
    fs.writeFile(path.join(dir, 'merges.txt'), `${tiny.merges.join('\n')}\n`),
    fs.writeFile(path.join(dir, 'special_tokens_map.json'), JSON.stringify(special)),
    fs.writeFile(
      path.join(dir, 'tokenizer_config.json'),
      JSON.stringify({ ...special, model_max_length: 77, do_lower_case: true, tokenizer_class: 'CLIPTokenizer' }),
    ),
  ]);
  return tiny;
}
