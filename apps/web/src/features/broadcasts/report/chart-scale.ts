// The deliveries chart's y axis (ADR 065): whole numbers of messages, on a round top.

/** A round top for the y axis: 1, 2, 5 or 10 times a power of ten, at or above `max` (1 when empty). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((m) => m * p >= max) ?? 10) * p;
}

/** The y axis's lines: 0, the half when it is a whole number, and the top. */
export function ticks(top: number): number[] {
  return top % 2 === 0 ? [0, top / 2, top] : [0, top];
}
