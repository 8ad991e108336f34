import { fireEvent, render, screen } from '@testing-library/react';
import { ComparisonSlider } from './comparison-slider';
import { pointerPosition, sliderKeyPosition } from './slider-keys';

describe('comparison slider keyboard control', () => {
  it('moves by 1 with arrows, 10 with Page Up/Down, to the ends with Home/End, and stays within 0..100', () => {
    expect(sliderKeyPosition(50, 'ArrowRight')).toBe(51);
    expect(sliderKeyPosition(50, 'ArrowUp')).toBe(51);
    expect(sliderKeyPosition(50, 'ArrowLeft')).toBe(49);
    expect(sliderKeyPosition(50, 'ArrowDown')).toBe(49);
    expect(sliderKeyPosition(50, 'PageUp')).toBe(60);
    expect(sliderKeyPosition(5, 'PageDown')).toBe(0);
    expect(sliderKeyPosition(99.5, 'ArrowRight')).toBe(100);
    expect(sliderKeyPosition(30, 'Home')).toBe(0);
    expect(sliderKeyPosition(30, 'End')).toBe(100);
    expect(sliderKeyPosition(30, 'a')).toBeNull();
  });

  it('maps a pointer to a percentage of the frame, clamped', () => {
    expect(pointerPosition(150, 100, 200)).toBe(25);
    expect(pointerPosition(50, 100, 200)).toBe(0);
    expect(pointerPosition(400, 100, 200)).toBe(100);
  });

  it('is an ARIA slider whose keys move the divider and uncover the before image', () => {
    render(
      <ComparisonSlider
        before="/before.png"
        after="/after.png"
        beforeLabel="Before"
        afterLabel="After"
        label="Compare"
        aspect={1.5}
      />,
    );
    const slider = screen.getByRole('slider', { name: 'Compare' });
    const before = screen.getByAltText('Before');
    expect(slider.getAttribute('aria-valuenow')).toBe('50');
    expect(before.style.clipPath).toBe('inset(0 50% 0 0)');
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    fireEvent.keyDown(slider, { key: 'PageUp' });
    expect(slider.getAttribute('aria-valuenow')).toBe('61');
    expect(before.style.clipPath).toBe('inset(0 39% 0 0)');
    fireEvent.keyDown(slider, { key: 'Home' });
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    fireEvent.keyDown(slider, { key: 'End' });
    expect(slider.getAttribute('aria-valuetext')).toBe('100%');
  });
});

describe('comparison slider backgrounds', () => {
  const slider = (backdrop?: string) =>
    render(
      <ComparisonSlider
        before="/before.png"
        after="/after.png"
        beforeLabel="Before"
        afterLabel="After"
        label="Compare"
        aspect={0.5}
        backdrop={backdrop}
      />,
    );

  it("gives the frame the result's shape (its CSS caps the width by the height), with the checkerboard behind", () => {
    slider();
    const frame = screen.getByTestId('compare');
    expect(frame.style.getPropertyValue('--compare-aspect')).toBe('0.5');
    expect(frame.style.aspectRatio).toBe('0.5');
    expect(frame.classList.contains('checkerboard')).toBe(true);
  });

  it('shows a chosen backdrop colour behind the result instead of the checkerboard', () => {
    slider('#ff0000');
    const frame = screen.getByTestId('compare');
    expect(frame.classList.contains('checkerboard')).toBe(false);
    expect(frame.style.backgroundColor).toBe('rgb(255, 0, 0)');
  });
});
