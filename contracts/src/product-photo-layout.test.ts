import { DEFAULT_PRODUCT_PHOTO_LAYOUT, productPhotoRequestSchema } from './product-photo';
import { planLayout } from './product-photo-layout';
import { NO_CUT_EDGES, type CutEdges } from './subject-box';

const layoutOf = (fields: Record<string, string>) => productPhotoRequestSchema.parse(fields);
const INPUT = { width: 3000, height: 2000 };
const SUBJECT = { left: 1000, top: 500, width: 800, height: 1000 };

describe('planLayout', () => {
  it('keeps the input as it is by default', () => {
    expect(planLayout(INPUT, SUBJECT, DEFAULT_PRODUCT_PHOTO_LAYOUT)).toEqual({
      canvas: INPUT,
      source: { left: 0, top: 0, width: 3000, height: 2000 },
      target: { left: 0, top: 0, width: 3000, height: 2000 },
      subjectBox: SUBJECT,
      cutEdges: NO_CUT_EDGES,
    });
    expect(planLayout(INPUT, null, DEFAULT_PRODUCT_PHOTO_LAYOUT).subjectBox).toBeNull();
  });

  it('keeps the input size with canvas original and no crop, whatever the margin (the editor sends its 8%)', () => {
    const photo = { width: 512, height: 512 };
    const whole = { left: 0, top: 0, width: 512, height: 512 };
    for (const margin of ['8%', '20px 5% 0 10px']) {
      expect(planLayout(photo, SUBJECT, layoutOf({ margin }))).toMatchObject({ canvas: photo, target: whole });
      // Crop asked but no subject in the matte: nothing to crop, the input as it is.
      expect(planLayout(photo, null, layoutOf({ margin, crop_to_subject: 'true' }))).toMatchObject({
        canvas: photo,
        target: whole,
      });
    }
    // A crop, or a canvas of a chosen aspect or size, still takes the margin.
    expect(planLayout(photo, { ...whole }, layoutOf({ margin: '10%', crop_to_subject: 'true' })).canvas).toEqual({
      width: 640,
      height: 640,
    });
    const square = planLayout(photo, null, layoutOf({ margin: '10%', canvas: '1:1' }));
    expect([square.canvas, square.target]).toEqual([
      { width: 640, height: 640 },
      { left: 64, top: 64, width: 512, height: 512 },
    ]);
    const fixed = planLayout(photo, null, layoutOf({ margin: '10%', canvas: '1000x1000' }));
    expect(fixed.target).toEqual({ left: 100, top: 100, width: 800, height: 800 });
  });

  it('crops to the subject, with margins in % of the canvas side or px', () => {
    const crop = planLayout(INPUT, SUBJECT, layoutOf({ crop_to_subject: 'true' }));
    expect(crop.canvas).toEqual({ width: 800, height: 1000 });
    expect(crop.target).toEqual({ left: 0, top: 0, width: 800, height: 1000 });
    expect(crop.subjectBox).toEqual(crop.target);
    // 10% of each side: the subject is 80% of the canvas, at scale 1.
    const pct = planLayout(INPUT, SUBJECT, layoutOf({ crop_to_subject: 'true', margin: '10%' }));
    expect(pct.canvas).toEqual({ width: 1000, height: 1250 });
    expect(pct.target).toEqual({ left: 100, top: 125, width: 800, height: 1000 });
    const px = planLayout(INPUT, SUBJECT, layoutOf({ crop_to_subject: 'true', margin: '10px 20px 30px 40px' }));
    expect(px.canvas).toEqual({ width: 860, height: 1040 });
    expect(px.target).toEqual({ left: 40, top: 10, width: 800, height: 1000 });
  });

  it('sizes an aspect canvas from the subject plus margin, capped by max_side (4:5 at 1350 is 1080x1350)', () => {
    const tall = { left: 500, top: 100, width: 1400, height: 1800 };
    const p = planLayout(
      INPUT,
      tall,
      layoutOf({ crop_to_subject: 'true', canvas: '4:5', max_side: '1350', margin: '5%' }),
    );
    expect(p.canvas).toEqual({ width: 1080, height: 1350 });
    // The subject is scaled down to fill the inner height and centred across.
    const innerH = 1350 - 2 * Math.round(0.05 * 1350);
    expect(p.target.height).toBe(innerH);
    expect(Math.abs(p.target.width - (1400 * innerH) / 1800)).toBeLessThanOrEqual(1);
    expect(Math.abs(p.target.left + p.target.width / 2 - 540)).toBeLessThanOrEqual(1);
    expect(p.target.top).toBe(Math.round(0.05 * 1350));
    // Below the cap the canvas grows around the subject at scale 1 (never enlarged): 800x1000 + 5% is about
    // 889x1111, a pixel more so that the rounded margins leave the subject its own size.
    const small = planLayout(
      INPUT,
      SUBJECT,
      layoutOf({ crop_to_subject: 'true', canvas: '4:5', max_side: '1350', margin: '5%' }),
    );
    expect(small.canvas).toEqual({ width: 890, height: 1112 });
    expect(small.target).toEqual({ left: 45, top: 56, width: 800, height: 1000 });
    // Without a cap the canvas grows around the subject at scale 1: 1:1 of an 800x1000 subject is 1000x1000.
    const square = planLayout(INPUT, SUBJECT, layoutOf({ crop_to_subject: 'true', canvas: '1:1' }));
    expect(square.canvas).toEqual({ width: 1000, height: 1000 });
    expect(square.target).toEqual({ left: 100, top: 0, width: 800, height: 1000 });
    const wide = planLayout(INPUT, SUBJECT, layoutOf({ crop_to_subject: 'true', canvas: '16:9', max_side: '1600' }));
    expect(wide.canvas).toEqual({ width: 1600, height: 900 });
    expect(wide.target.height).toBe(900);
  });

  it('scales the subject (up or down) to fill a fixed canvas inside the margin, at the asked position', () => {
    const p = planLayout(INPUT, SUBJECT, layoutOf({ crop_to_subject: 'true', canvas: '2000x2000', margin: '10%' }));
    expect(p.canvas).toEqual({ width: 2000, height: 2000 });
    expect(p.target).toEqual({ left: 360, top: 200, width: 1280, height: 1600 });
    const corner = planLayout(
      INPUT,
      SUBJECT,
      layoutOf({ crop_to_subject: 'true', canvas: '2000x2000', margin: '10%', position: '0% 100%' }),
    );
    expect(corner.target).toEqual({ left: 200, top: 200, width: 1280, height: 1600 });
    const right = planLayout(
      INPUT,
      SUBJECT,
      layoutOf({ crop_to_subject: 'true', canvas: '2000x2000', margin: '10%', position: '100% 0%' }),
    );
    expect(right.target.left + right.target.width).toBe(1800);
    const capped = planLayout(
      INPUT,
      SUBJECT,
      layoutOf({ crop_to_subject: 'true', canvas: '2000x1000', max_side: '1000' }),
    );
    expect(capped.canvas).toEqual({ width: 1000, height: 500 });
    expect(capped.target).toEqual({ left: 300, top: 0, width: 400, height: 500 });
  });

  it('fits the whole input on a canvas without crop_to_subject, and maps the subject box', () => {
    const p = planLayout(INPUT, SUBJECT, layoutOf({ canvas: '1000x1000' }));
    expect(p.target).toEqual({ left: 0, top: 167, width: 1000, height: 667 });
    expect(p.subjectBox).toEqual({ left: 333, top: 334, width: 267, height: 333 });
  });

  it('keeps the subject where it sat in the input with position original', () => {
    // The subject sat at 1000 / (3000 - 800) of the free width and 500 / (2000 - 1000) of the free height.
    const p = planLayout(
      INPUT,
      SUBJECT,
      layoutOf({ crop_to_subject: 'true', canvas: '2000x2000', position: 'original' }),
    );
    expect(p.target.width).toBe(1600);
    expect(p.target.left).toBe(Math.round((1000 / 2200) * 400));
    expect(p.target.top).toBe(0);
  });

  it('never makes a canvas over 8000 px on its own, nor over max_side', () => {
    const p = planLayout(INPUT, SUBJECT, layoutOf({ crop_to_subject: 'true', margin: '49.9%' }));
    expect(Math.max(p.canvas.width, p.canvas.height)).toBeLessThanOrEqual(8000);
    expect(p.target.width).toBeGreaterThan(0);
    const q = planLayout(INPUT, SUBJECT, layoutOf({ max_side: '1500' }));
    expect(q.canvas).toEqual({ width: 1500, height: 1000 });
  });
});

describe('planLayout: the frame rule (subjects cut by the photo frame stay on the frame)', () => {
  const cut = (sides: Partial<CutEdges>): CutEdges => ({ ...NO_CUT_EDGES, ...sides });
  // A person cut at the waist by the photo's bottom edge: the box reaches the input's bottom.
  const WAIST = { left: 1000, top: 800, width: 800, height: 1200 };
  const crop = { crop_to_subject: 'true', margin: '10%' };

  it('puts a side cut by the frame on the canvas edge with no margin there, the other axis as asked', () => {
    const fixed = planLayout(INPUT, WAIST, layoutOf({ ...crop, canvas: '2000x2000' }), cut({ bottom: true }));
    // The inner height is 2000 - 200 (the top margin only), so the subject is scaled by 1800 / 1200 (the inner
    // width, 1600, would allow 2): 1200 x 1800, down on the bottom edge, centred across.
    expect(fixed.target).toEqual({ left: 400, top: 200, width: 1200, height: 1800 });
    expect(fixed.subjectBox!.top + fixed.subjectBox!.height).toBe(2000);
    expect(fixed.cutEdges).toEqual(cut({ bottom: true }));
    // A canvas grown around the subject gets no margin on the cut side: 800 x 1200 plus 10% at the top only.
    const grown = planLayout(INPUT, WAIST, layoutOf(crop), cut({ bottom: true }));
    expect(grown.target.top + grown.target.height).toBe(grown.canvas.height);
    expect(grown.target.top).toBe(Math.round(0.1 * grown.canvas.height));
    expect(grown.target.left).toBe(grown.canvas.width - grown.target.left - grown.target.width);
    // Left and right cuts: flush left, flush right.
    const left = planLayout(INPUT, SUBJECT, layoutOf({ ...crop, canvas: '2000x2000' }), cut({ left: true }));
    expect(left.target.left).toBe(0);
    expect(left.target.top).toBe(2000 - left.target.top - left.target.height);
    const right = planLayout(INPUT, SUBJECT, layoutOf({ ...crop, canvas: '2000x2000' }), cut({ right: true }));
    expect(right.target.left + right.target.width).toBe(2000);
    const corner = planLayout(INPUT, SUBJECT, layoutOf({ ...crop, canvas: '1:1' }), cut({ top: true, left: true }));
    expect([corner.target.left, corner.target.top]).toEqual([0, 0]);
  });

  it('fills an axis cut on both sides, and places the whole photo the same way without a crop', () => {
    // A panorama cut by both sides of the photo: on a square it spans the width, the 10% margins above and below.
    const wide = { left: 0, top: 500, width: 3000, height: 1000 };
    const both = planLayout(INPUT, wide, layoutOf({ ...crop, canvas: '1:1' }), cut({ left: true, right: true }));
    expect([both.canvas, both.target]).toEqual([
      { width: 3000, height: 3000 },
      { left: 0, top: 1000, width: 3000, height: 1000 },
    ]);
    // Without a crop the content is the whole photo, whose bottom is the subject's cut bottom.
    const whole = planLayout(INPUT, WAIST, layoutOf({ margin: '10%', canvas: '1000x1000' }), cut({ bottom: true }));
    expect(whole.target.top + whole.target.height).toBe(1000);
    expect(whole.subjectBox!.top + whole.subjectBox!.height).toBe(1000);
  });

  it('centres as before when the option is off, when a position is sent, or when nothing is cut', () => {
    // Inside the 10% margins on every side: 1600 / 1200 of its size, centred.
    const centred = { left: 467, top: 200, width: 1067, height: 1600 };
    for (const extra of [{ keep_cut_edges: 'false' }, { position: 'center' }] as Record<string, string>[]) {
      const p = planLayout(INPUT, WAIST, layoutOf({ ...crop, canvas: '2000x2000', ...extra }), cut({ bottom: true }));
      // The cut is still reported (no shadow goes under it), but the layout is the one asked for.
      expect([extra, p.target, p.cutEdges.bottom]).toEqual([extra, centred, true]);
    }
    const p = planLayout(INPUT, SUBJECT, layoutOf({ ...crop, canvas: '2000x2000' }));
    expect(p.target).toEqual({ left: 360, top: 200, width: 1280, height: 1600 });
    // No subject, nothing cut.
    expect(planLayout(INPUT, null, layoutOf(crop), cut({ bottom: true })).cutEdges).toEqual(NO_CUT_EDGES);
  });
});
