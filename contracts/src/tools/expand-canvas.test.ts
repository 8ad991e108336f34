import { EXPAND_MAX_SIDE, EXPAND_MESSAGES, expandCanvas, expandRefusal } from './expand-canvas';

describe('expandCanvas', () => {
  const photo = { width: 300, height: 200 };

  it('gives the smallest canvas of a shape that holds the photo, growing one axis', () => {
    expect(expandCanvas(photo, { aspect: '16:9', position: 'center' })).toEqual({
      width: 356,
      height: 200,
      left: 28,
      top: 0,
    });
    expect(expandCanvas(photo, { aspect: '1:1', position: 'center' })).toEqual({
      width: 300,
      height: 300,
      left: 0,
      top: 50,
    });
    expect(expandCanvas(photo, { aspect: '4:5', position: 'bottom' })).toEqual({
      width: 300,
      height: 375,
      left: 0,
      top: 175,
    });
    expect(expandCanvas(photo, { aspect: '9:16', position: 'top' })).toMatchObject({ width: 300, height: 533, top: 0 });
  });

  it('multiplies both sides by a factor and puts the photo against the named edge, centred on the other axis', () => {
    expect(expandCanvas(photo, { factor: 1.5, position: 'center' })).toEqual({
      width: 450,
      height: 300,
      left: 75,
      top: 50,
    });
    expect(expandCanvas(photo, { factor: 2, position: 'left' })).toEqual({
      width: 600,
      height: 400,
      left: 0,
      top: 100,
    });
    expect(expandCanvas(photo, { factor: 2, position: 'right' })).toEqual({
      width: 600,
      height: 400,
      left: 300,
      top: 100,
    });
    expect(expandCanvas(photo, { factor: 1.25, position: 'bottom' })).toEqual({
      width: 375,
      height: 250,
      left: 37,
      top: 50,
    });
  });

  it('centres along an axis the position does not name (top on a wider canvas)', () => {
    expect(expandCanvas(photo, { aspect: '16:9', position: 'top' })).toEqual(
      expandCanvas(photo, { aspect: '16:9', position: 'center' }),
    );
  });
});

describe('expandRefusal', () => {
  it('allows a canvas up to the limit and refuses one pixel more, naming the size', () => {
    expect(expandRefusal({ width: 2048, height: 1000 }, { factor: 2, position: 'center' })).toBeNull();
    expect(expandRefusal({ width: 2049, height: 1000 }, { factor: 2, position: 'center' })).toBe(
      EXPAND_MESSAGES.canvasTooLarge('4098x2000'),
    );
  });

  it('refuses a photo already at the limit whatever the choice', () => {
    expect(expandRefusal({ width: 1000, height: EXPAND_MAX_SIDE }, { aspect: '16:9', position: 'center' })).toBe(
      EXPAND_MESSAGES.photoTooLarge(`1000x${EXPAND_MAX_SIDE}`),
    );
  });

  it('refuses a shape the photo already has (to within rounding), and allows one it has not', () => {
    expect(expandRefusal({ width: 300, height: 200 }, { aspect: '3:2', position: 'center' })).toBe(
      EXPAND_MESSAGES.sameShape,
    );
    expect(expandRefusal({ width: 301, height: 200 }, { aspect: '3:2', position: 'center' })).toBe(
      EXPAND_MESSAGES.sameShape,
    );
    expect(expandRefusal({ width: 300, height: 200 }, { aspect: '1:1', position: 'center' })).toBeNull();
  });
});
