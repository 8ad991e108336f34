import { formatJobStage } from '@imagestudio/contracts';
import { translate, type Translate } from '../../lib/i18n/translate';
import { stageText, timeLeftText } from './job-status';

const t: Translate = (key, vars) => translate({}, key, vars);

describe('stageText', () => {
  it('counts generation in steps and the image tools in tiles', () => {
    const stage = formatJobStage('processing', 3, 12);
    expect(stageText(t, 'generate', stage)).toBe('Step 3 of 12');
    expect(stageText(t, 'remove-background', stage)).toBe('Processing tile 3 of 12');
    expect(stageText(t, 'upscale', stage)).toBe('Processing tile 3 of 12');
  });

  it('names the other stages alike for every tool', () => {
    expect(stageText(t, 'upscale', null)).toBe('Starting');
    expect(stageText(t, 'generate', formatJobStage('encoding'))).toBe('Encoding the result');
  });
});

describe('timeLeftText', () => {
  it('reads the estimate as a range, never as a figure to the second', () => {
    expect([null, 0, 4, 30, 60, 89, 90, 200].map((s) => timeLeftText(t, s))).toEqual([
      null,
      'Almost done',
      'A few seconds left',
      'Less than a minute left',
      'About a minute left',
      'About a minute left',
      'About 2 minutes left',
      'About 3 minutes left',
    ]);
  });
});
