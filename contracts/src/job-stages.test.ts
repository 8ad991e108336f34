import {
  asciiFileName,
  compositionDownloadName,
  fileNameBase,
  formatJobStage,
  parseJobStage,
  resultDownloadName,
} from './job-stages';

describe('job stages', () => {
  it('round-trips a stage with and without its units', () => {
    expect(parseJobStage(formatJobStage('processing', 3, 12))).toEqual({ stage: 'processing', done: 3, total: 12 });
    expect(parseJobStage(formatJobStage('saving'))).toEqual({ stage: 'saving', done: null, total: null });
  });

  it('ignores stage names it does not know', () => {
    expect(parseJobStage('inferred')).toBeNull();
    expect(parseJobStage(null)).toBeNull();
    expect(parseJobStage('processing 3')).toBeNull();
  });
});

describe('result download names', () => {
  it('name results after the input file', () => {
    expect(resultDownloadName({ tool: 'remove-background', input_name: 'cat.jpg', params: {} }, 0, 'png')).toBe(
      'cat-no-background.png',
    );
    expect(
      resultDownloadName({ tool: 'upscale', input_name: 'C:\\Photos\\cat.PNG', params: { factor: 4 } }, 0, 'jpeg'),
    ).toBe('cat-x4.jpg');
  });

  it('name a kept composition after the input and its size, so the pictures of one photo keep apart', () => {
    const job = { tool: 'remove-background' as const, input_name: 'shoe.HEIC', params: {} };
    expect(compositionDownloadName(job, { width: 2000, height: 2000, format: 'jpeg' })).toBe(
      'shoe-no-background-2000x2000.jpg',
    );
    expect(compositionDownloadName(job, { width: 1080, height: 1350, format: 'webp' })).toBe(
      'shoe-no-background-1080x1350.webp',
    );
  });

  it('name generated images after the prompt', () => {
    expect(
      resultDownloadName(
        { tool: 'generate', input_name: null, params: { prompt: 'A lighthouse at dusk, oil painting' } },
        1,
        'png',
      ),
    ).toBe('a-lighthouse-at-dusk-oil-painting-2.png');
  });

  it('keep only safe characters and fall back when nothing is left', () => {
    expect(fileNameBase('Früh stück (1).webp')).toBe('Früh-stück-1');
    expect(fileNameBase('a<b>c:d"e|f?g*h.png')).toBe('a-b-c-d-e-f-g-h');
    expect(resultDownloadName({ tool: 'upscale', input_name: '???.png', params: { factor: 2 } }, 0, 'png')).toBe(
      'image-x2.png',
    );
  });
});

describe('non-ASCII file names', () => {
  it('keep their letters in the download name, decomposed or not, and have an ASCII fallback', () => {
    const job = { tool: 'remove-background' as const, input_name: 'Frühstück.png', params: {} };
    expect(resultDownloadName(job, 0, 'png')).toBe('Frühstück-no-background.png');
    // macOS sends decomposed umlauts (u + combining diaeresis): the same name once composed.
    expect(resultDownloadName({ ...job, input_name: 'Fru\u0308hstu\u0308ck.png' }, 0, 'png')).toBe(
      'Frühstück-no-background.png',
    );
    expect(resultDownloadName({ ...job, input_name: '東京タワー.jpg' }, 0, 'png')).toBe('東京タワー-no-background.png');
    expect(asciiFileName('Frühstück-no-background.png')).toBe('Fruhstuck-no-background.png');
    expect(asciiFileName('東京タワー-x2.png')).toBe('x2.png');
    expect(asciiFileName('東京.png')).toBe('download.png');
  });
});
