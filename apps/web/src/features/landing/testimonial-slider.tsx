import { Box, Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { type PointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The landing page's testimonial slider (spec 000 §2, §9): 3 slides on desktop, 1 on mobile (mobile told by
// the user agent), a drag of 70 px moves one slide, and so does a drag of a quarter of a slide (slide ratio).

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

const KEYS = ['one', 'two', 'three', 'four', 'five'] as const;

export function TestimonialSlider() {
  const { t } = useTranslation();
  const perView = isMobileAgent() ? SLIDES_MOBILE : SLIDES_DESKTOP;
  const last = KEYS.length - perView;
  const [index, setIndex] = useState(0);
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  const viewport = useRef<HTMLDivElement>(null);

  const down = (e: PointerEvent<HTMLDivElement>) => {
    start.current = e.clientX;
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current !== null) setDx(e.clientX - start.current);
  };
  const up = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return;
    const width = (viewport.current?.clientWidth ?? 0) / perView;
    const step = dragStep(e.clientX - start.current, width);
    setIndex((i) => Math.min(last, Math.max(0, i + step)));
    start.current = null;
    setDx(0);
  };

  return (
    <Box>
      <Box
        ref={viewport}
        style={{ overflow: 'hidden', touchAction: 'pan-y', cursor: 'grab', userSelect: 'none' }}
        data-testid="testimonial-slider"
        data-per-view={perView}
        data-index={index}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      >
        <div
          style={{
            display: 'flex',
            transform: `translateX(calc(${(-index * 100) / perView}% + ${dx}px))`,
            transition: dx === 0 ? 'transform 300ms ease' : 'none',
          }}
        >
          {KEYS.map((k) => (
            <Box key={k} p="xs" style={{ flex: `0 0 ${100 / perView}%` }} data-testid="testimonial-slide">
              <Paper withBorder p="md" h="100%">
                <Text fs="italic">“{t(`landing.testimonials.${k}`)}”</Text>
              </Paper>
            </Box>
          ))}
        </div>
      </Box>
      <Group justify="center" gap={0} mt="sm">
        {Array.from({ length: last + 1 }, (_, i) => (
          // A 24 px target (WCAG 2.5.8) around the 10 px dot it shows.
          <UnstyledButton
            // biome-ignore lint/suspicious/noArrayIndexKey: the dots are positions
            key={i}
            aria-label={t('landing.testimonials.slide', { n: i + 1 })}
            aria-current={i === index}
            onClick={() => setIndex(i)}
            style={{ width: 24, height: 24, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
          >
            <span
              style={{
                width: 10,
                height: 10,
                borderRadius: 5,
                background: i === index ? 'var(--mantine-color-blue-6)' : 'var(--mantine-color-gray-4)',
              }}
            />
          </UnstyledButton>
        ))}
      </Group>
    </Box>
  );
}
