// The landing page's testimonial slider (spec 000 §2, §9): 3 slides on desktop, 1 on mobile (mobile told by
// the user agent), a drag of 70 px moves one slide, and so does a drag of a quarter of a slide (slide ratio).
// No framework: it drives the slider of landing.html (data-per-view, data-index, the dots).

export const SLIDES_DESKTOP = 3;
export const SLIDES_MOBILE = 1;
export const DRAG_DISTANCE_PX = 70;
export const SLIDE_RATIO = 1 / 4;

/** Mobile as the spec tells it: by the user agent, not the width. */
export function isMobileAgent(userAgent: string = navigator.userAgent): boolean {
  return /Mobi|Android|iPhone/i.test(userAgent);
}

/** How many slides a drag of `dx` px moves (-1, 0 or 1) on slides `slideWidth` px wide. */
export function dragStep(dx: number, slideWidth: number): number {
  const threshold = Math.min(DRAG_DISTANCE_PX, slideWidth > 0 ? slideWidth * SLIDE_RATIO : DRAG_DISTANCE_PX);
  if (Math.abs(dx) < threshold) return 0;
  return dx < 0 ? 1 : -1;
}

/** Sets up the slider: `viewport` holds `track`, whose children are the slides; `dots` gets one button per position. */
export function mountSlider(
  viewport: HTMLElement,
  track: HTMLElement,
  dots: HTMLElement,
  dotLabel: (n: number) => string,
): void {
  const perView = isMobileAgent() ? SLIDES_MOBILE : SLIDES_DESKTOP;
  const last = Math.max(0, track.children.length - perView);
  let index = 0;
  let start: number | null = null;
  viewport.dataset.perView = String(perView);
  viewport.style.setProperty('--per-view', String(perView));

  const buttons = Array.from({ length: last + 1 }, (_, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('aria-label', dotLabel(i + 1));
    b.addEventListener('click', () => show(i));
    return b;
  });
  dots.replaceChildren(...buttons);

  function show(i: number, dx = 0): void {
    index = Math.min(last, Math.max(0, i));
    viewport.dataset.index = String(index);
    track.style.transition = dx === 0 ? '' : 'none';
    track.style.transform = `translateX(calc(${(-index * 100) / perView}% + ${dx}px))`;
    buttons.forEach((b, n) => {
      b.setAttribute('aria-current', String(n === index));
    });
  }
  show(0);

  viewport.addEventListener('pointerdown', (e) => {
    start = e.clientX;
    viewport.setPointerCapture?.(e.pointerId);
  });
  viewport.addEventListener('pointermove', (e) => {
    if (start !== null) show(index, e.clientX - start);
  });
  const up = (e: PointerEvent) => {
    if (start === null) return;
    const step = dragStep(e.clientX - start, viewport.clientWidth / perView);
    start = null;
    show(index + step);
  };
  viewport.addEventListener('pointerup', up);
  viewport.addEventListener('pointercancel', up);
}
