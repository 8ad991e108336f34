import { fileNameBase, formatJobStage, parseJobStage, resultDownloadName } from './job-stages';

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
    expect(fileNameBase('Früh stück (1).webp')).toBe('Fruh-stuck-1');
    expect(resultDownloadName({ tool: 'upscale', input_name: '???.png', params: { factor: 2 } }, 0, 'png')).toBe(
      'image-x2.png',
    );
  });
});
