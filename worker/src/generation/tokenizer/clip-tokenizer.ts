import fs from 'node:fs/promises';
import path from 'node:path';
import { toByteLevel } from './byte-unicode';

const BOS = '<|startoftext|>';
const EOS = '<|endoftext|>';
const END_OF_WORD = '</w>';
/** CLIP's context length; diffusers exports declare it as `model_max_length`. */
export const CLIP_MAX_LENGTH = 77;

/**
 * CLIP's pre-tokenisation pattern: contractions, runs of letters, single digits, runs of other symbols.
 * Whitespace matches nothing and so disappears.
 */
const WORD_PATTERN = /<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+/gu;
const SPECIAL_SPLIT = /(<\|startoftext\|>|<\|endoftext\|>)/;

export interface ClipTokenizerFiles {
  /** token -> id, the `vocab.json` of a diffusers `tokenizer/` folder. */
  vocab: Record<string, number>;
  /** The lines of `merges.txt`, header included or not. */
  merges: string[];
  /** `tokenizer_config.json` and `special_tokens_map.json` merged; only `pad_token` and `model_max_length` are read. */
  config?: { pad_token?: unknown; model_max_length?: unknown };
}

/**
 * CLIP byte-level BPE tokenizer (the one Stable Diffusion's text encoder was trained with): NFC, whitespace
 * collapsed, lower-cased, split by CLIP's pattern, each word BPE-merged with an end-of-word marker, wrapped
 * in start/end tokens, truncated and padded to the context length with the pad id the model expects.
 */
export class ClipTokenizer {
  readonly bosId: number;
  readonly eosId: number;
  readonly padId: number;
  readonly maxLength: number;
  private readonly ranks = new Map<string, number>();
  private readonly cache = new Map<string, number[]>();

  constructor(private readonly files: ClipTokenizerFiles) {
    this.bosId = requireId(files.vocab, BOS);
    this.eosId = requireId(files.vocab, EOS);
    const padToken = tokenContent(files.config?.pad_token);
    this.padId = padToken !== undefined && files.vocab[padToken] !== undefined ? files.vocab[padToken] : this.eosId;
    const max = Number(files.config?.model_max_length);
    // Some exports write a huge sentinel for "no limit"; CLIP's position table is 77 long regardless.
    this.maxLength = Number.isInteger(max) && max >= 2 && max <= 1024 ? max : CLIP_MAX_LENGTH;
    for (const line of files.merges) {
      if (line.startsWith('#version') || line.trim() === '') continue;
      const [a, b] = line.split(' ');
      // A merge whose result is not in the vocabulary was never part of the model (CLIP ships more merges than it uses).
      if (a === undefined || b === undefined || files.vocab[a + b] === undefined) continue;
      const key = `${a} ${b}`;
      if (!this.ranks.has(key)) this.ranks.set(key, this.ranks.size);
    }
  }

  /** Reads `vocab.json`, `merges.txt` and the optional token configs from a diffusers `tokenizer/` folder. */
  static async fromDir(dir: string): Promise<ClipTokenizer> {
    const read = (name: string) => fs.readFile(path.join(dir, name), 'utf8');
    const optionalJson = async (name: string): Promise<Record<string, unknown>> => {
      try {
        return JSON.parse(await read(name)) as Record<string, unknown>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw err;
      }
    };
    const [vocab, merges, specialMap, config] = await Promise.all([
      read('vocab.json').then((t) => JSON.parse(t) as Record<string, number>),
      read('merges.txt').then((t) => t.split('\n')),
      optionalJson('special_tokens_map.json'),
      optionalJson('tokenizer_config.json'),
    ]);
    return new ClipTokenizer({ vocab, merges, config: { ...specialMap, ...config } });
  }

  /** Token ids of `text` without start/end tokens, padding or truncation. */
  tokenize(text: string): number[] {
    const ids: number[] = [];
    // Special tokens written literally are honoured before normalisation, as the reference tokenizer does.
    for (const part of text.split(SPECIAL_SPLIT)) {
      if (part === BOS || part === EOS) {
        ids.push(part === BOS ? this.bosId : this.eosId);
        continue;
      }
      const normalized = part.normalize('NFC').replace(/\s+/gu, ' ').toLowerCase();
      for (const match of normalized.matchAll(WORD_PATTERN)) ids.push(...this.bpe(toByteLevel(match[0])));
    }
    return ids;
  }

  /** The text encoder's input: start token, at most maxLength - 2 tokens, end token, then pad ids. */
  encode(text: string): number[] {
    const body = this.tokenize(text).slice(0, this.maxLength - 2);
    const ids = [this.bosId, ...body, this.eosId];
    while (ids.length < this.maxLength) ids.push(this.padId);
    return ids;
  }

  /** Merges one pre-tokenised word by merge rank until no ranked pair remains. */
  private bpe(word: string): number[] {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const symbols = Array.from(word);
    symbols[symbols.length - 1] += END_OF_WORD;
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < symbols.length - 1; i += 1) {
        const rank = this.ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) break;
      const [a, b] = [symbols[best]!, symbols[best + 1]!];
      // Merge every occurrence of the winning pair, left to right, as reference BPE does.
      const merged: string[] = [];
      for (let i = 0; i < symbols.length; i += 1) {
        if (i < symbols.length - 1 && symbols[i] === a && symbols[i + 1] === b) {
          merged.push(a + b);
          i += 1;
        } else merged.push(symbols[i]!);
      }
      symbols.splice(0, symbols.length, ...merged);
    }
    const ids = symbols.map((s) => this.files.vocab[s] ?? this.eosId);
    if (this.cache.size < 10_000) this.cache.set(word, ids);
    return ids;
  }
}

function requireId(vocab: Record<string, number>, token: string): number {
  const id = vocab[token];
  if (id === undefined) throw new Error(`tokenizer vocabulary has no ${token}`);
  return id;
}

/** Token configs write a token either as a string or as `{ content: string, ... }`. */
function tokenContent(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { content?: unknown }).content === 'string') {
    return (value as { content: string }).content;
  }
  return undefined;
}
