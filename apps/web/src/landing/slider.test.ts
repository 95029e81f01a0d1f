import { describe, expect, it } from 'vitest';
import { DRAG_DISTANCE_PX, dragStep, isMobileAgent } from './slider.ts';

// The testimonial slider's rules (spec 000 §2, §9): mobile by user agent, a drag of 70 px or a quarter of
// a slide moves one slide.

describe('testimonial slider', () => {
  it('tells mobile by the user agent', () => {
    expect(isMobileAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true);
    expect(isMobileAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe(true);
    expect(isMobileAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36')).toBe(false);
  });

  it('moves one slide for a drag of 70 px, none for less', () => {
    expect(DRAG_DISTANCE_PX).toBe(70);
    expect(dragStep(-69, 400)).toBe(0);
    expect(dragStep(-70, 400)).toBe(1);
    expect(dragStep(70, 400)).toBe(-1);
    expect(dragStep(-300, 400)).toBe(1);
  });

  it('takes a quarter of a narrow slide as the drag distance', () => {
    expect(dragStep(-50, 200)).toBe(1);
    expect(dragStep(-49, 200)).toBe(0);
  });
});
