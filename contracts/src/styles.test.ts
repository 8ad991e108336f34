import { STYLE_IDS, STYLE_PRESETS, applyStyle, findStyle } from './styles';

describe('style presets', () => {
  it('have unique ids and templates that place the prompt once', () => {
    expect(new Set(STYLE_IDS).size).toBe(STYLE_PRESETS.length);
    for (const s of STYLE_PRESETS) expect(s.prompt.split('{prompt}')).toHaveLength(2);
    expect(findStyle('anime')?.label).toBe('Anime');
    expect(findStyle('nope')).toBeUndefined();
  });

  it('wrap the prompt and extend the negative prompt', () => {
    expect(applyStyle('watercolor', 'a fox', 'text')).toEqual({
      prompt: 'watercolor painting of a fox, soft washes, paper texture, delicate',
      negativePrompt: 'text, photo, 3d render, harsh lines',
    });
    expect(applyStyle(undefined, 'a fox')).toEqual({ prompt: 'a fox', negativePrompt: '' });
    expect(applyStyle('none', 'a fox', 'blur')).toEqual({ prompt: 'a fox', negativePrompt: 'blur' });
    expect(() => applyStyle('unknown', 'a fox')).toThrow(/unknown style/);
  });
});
