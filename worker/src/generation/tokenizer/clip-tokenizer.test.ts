import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ClipTokenizer } from './clip-tokenizer';
import { writeTinyTokenizer } from '../test-support/tiny-vocab';

const LONG =
  'a very long prompt about a castle on a hill with towers and flags and knights and horses and dragons ' +
  'flying over the mountains while the sun sets behind the clouds and the river shines like silver in the ' +
  'valley below where farmers work in golden fields of wheat and children play near the old stone bridge';

const PROMPTS = [
  'a photo of an astronaut riding a horse on the moon',
  'A Photo Of An ASTRONAUT Riding A Horse',
  'portrait of a woman, oil painting, renaissance style, dramatic light, masterpiece',
  'cyberpunk city at night!!! neon lights... rain???',
  "it's a beautiful day; they're walking the dog, we've seen it and I'll draw it, you'd like it, I'm here",
  "IT'S LOUD, THEY'RE HERE",
  'café crème brûlée',
  'naïve façade über straße',
  'señor piñata coöperation',
  'cafe\u0301 decomposed accents (NFD input)',
  '東京の夜景、ネオン',
  '北京 天安门 广场',
  '서울의 밤',
  'Москва ночью, красивый вид',
  'αθήνα ακρόπολη',
  'مدينة في الليل',
  'emoji 🚀🌕🐴 and a 👩‍🚀 astronaut',
  '🔥🔥🔥',
  'numbers 1234567890 and 3.14159 and 1,000,000',
  '4k 8k uhd 1080p f/2.8 50mm',
  'tabs\tand\nnewlines\r\nand   many    spaces',
  '   leading and trailing spaces   ',
  '',
  ' ',
  '!!!',
  '...,,,;;;:::',
  '(masterpiece:1.2), [best quality], {detailed}',
  'a <cat> & a "dog" with \'quotes\'',
  'hyphen-ated words and under_scores and slash/separated',
  'email@example.com https://example.com/path?x=1#frag',
  '$100 €50 £20 ¥1000 ₿',
  '100% pure 50/50 #1 @home ~approx ^caret `tick`',
  'ﬁne ligature ﬂow',
  'ÀÉÎÕÜ ÇÑ ÆØÅ',
  'İstanbul Iğdır ŞIRNAK',
  'math ∑∫√∞ ≠ ≤ ≥ ±',
  'a\u200bzero\u200bwidth space',
  'combining: e\u0301 a\u0308 o\u0303',
  'ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３',
  'x'.repeat(120),
  'ab'.repeat(60),
  'the '.repeat(100),
  LONG,
  `${LONG}, ${LONG}`,
  '<|startoftext|>a prompt with the start token',
  'a prompt with the end token<|endoftext|> and more',
  'a watercolor painting of a cat sitting in a garden with flowers',
  'isometric illustration of a tiny house, low poly, pastel, clean lines',
  'a red fox in the snow, wildlife photography, sharp focus, bokeh',
  'mixed 混合 text with 日本語 and English and русский',
];

/**
 * The fast-tokenizer description of CLIP (what `tokenizer.json` of a CLIP checkpoint holds), built around the
 * same vocab.json and merges.txt our tokenizer reads.
 */
function referenceTokenizerJson(vocab: Record<string, number>, merges: string[]) {
  const bos = vocab['<|startoftext|>']!;
  const eos = vocab['<|endoftext|>']!;
  const added = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: true,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [added(bos, '<|startoftext|>'), added(eos, '<|endoftext|>')],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'NFC' },
        { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' },
        { type: 'Lowercase' },
      ],
    },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        {
          type: 'Split',
          pattern: {
            Regex:
              "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+",
          },
          behavior: 'Removed',
          invert: true,
        },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: {
      type: 'RobertaProcessing',
      sep: ['<|endoftext|>', eos],
      cls: ['<|startoftext|>', bos],
      trim_offsets: false,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: '<|endoftext|>',
      continuing_subword_prefix: '',
      end_of_word_suffix: '</w>',
      fuse_unk: false,
      vocab,
      merges: merges.filter((m) => !m.startsWith('#version') && m.trim() !== ''),
    },
  };
}

describe('ClipTokenizer', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clip-tok-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['!', 'SD 2.x / Turbo'],
    ['<|endoftext|>', 'SD 1.x'],
  ])('matches the reference CLIP tokenizer on 50 prompts with pad token %s (%s)', async (padToken) => {
    const tokDir = path.join(dir, padToken === '!' ? 'bang' : 'eos');
    await writeTinyTokenizer(tokDir, padToken);
    const ours = await ClipTokenizer.fromDir(tokDir);

    // The reference reads the very files ours read.
    const vocab = JSON.parse(await fs.readFile(path.join(tokDir, 'vocab.json'), 'utf8')) as Record<string, number>;
    const merges = (await fs.readFile(path.join(tokDir, 'merges.txt'), 'utf8')).split('\n');
    const config = JSON.parse(await fs.readFile(path.join(tokDir, 'tokenizer_config.json'), 'utf8')) as object;
    const { CLIPTokenizer } = await import('@huggingface/transformers');
    const reference = new CLIPTokenizer(referenceTokenizerJson(vocab, merges), config);

    expect(PROMPTS).toHaveLength(50);
    expect(ours.padId).toBe(vocab[padToken]);
    expect(reference.pad_token_id).toBe(ours.padId);
    const asNumbers = (t: { input_ids: { data: unknown } }) => Array.from(t.input_ids.data as BigInt64Array, Number);
    let truncated = 0;
    for (const prompt of PROMPTS) {
      const full = asNumbers(reference(prompt));
      let ids: number[];
      if (full.length <= 77) {
        ids = asNumbers(reference(prompt, { padding: 'max_length', max_length: 77, truncation: true }));
      } else {
        // transformers.js cuts after adding the end token; Python transformers (what diffusers runs) and
        // OpenAI's CLIP keep the end token last, so long prompts are compared against that rule.
        truncated += 1;
        ids = [...full.slice(0, 76), ours.eosId];
      }
      expect({ prompt, ids: ours.encode(prompt) }).toEqual({ prompt, ids });
    }
    expect(truncated).toBeGreaterThanOrEqual(3);
  });

  it('uses learned merges, wraps in start/end and pads to 77', async () => {
    const tokDir = path.join(dir, 'shape');
    const { vocab } = await writeTinyTokenizer(tokDir, '!');
    const tok = await ClipTokenizer.fromDir(tokDir);
    const ids = tok.encode('the photo');
    expect(ids).toHaveLength(77);
    expect(ids[0]).toBe(vocab['<|startoftext|>']);
    // "the" and "photo" are frequent in the corpus, so each is a single learned token.
    expect(ids.slice(1, 3)).toEqual([vocab['the</w>'], vocab['photo</w>']]);
    expect(ids[3]).toBe(vocab['<|endoftext|>']);
    expect(new Set(ids.slice(4))).toEqual(new Set([vocab['!']]));
  });

  it('truncates long prompts to 75 tokens between the start and end tokens', async () => {
    const tokDir = path.join(dir, 'trunc');
    const { vocab } = await writeTinyTokenizer(tokDir, '!');
    const tok = await ClipTokenizer.fromDir(tokDir);
    const ids = tok.encode(LONG.repeat(3));
    expect(tok.tokenize(LONG.repeat(3)).length).toBeGreaterThan(75);
    expect(ids).toHaveLength(77);
    expect(ids[76]).toBe(vocab['<|endoftext|>']);
  });
});
