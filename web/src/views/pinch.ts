/**
 * The math of a two-finger pinch zoom on a horizontally scrolling view (the life timeline), free of the DOM (so it
 * is tested in Node): how far the fingers moved apart, and where to scroll so the moment under them stays there.
 * pinch-track.ts follows the touches.
 */

export interface Point {
  x: number;
  y: number;
}

/** Where a pinch started: the fingers' distance and the scale then. */
export interface PinchStart {
  distance: number;
  pxPerDay: number;
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

export function midpoint(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/**
 * The scale a pinch asks for: the scale at its start times how much farther apart the fingers are now, within
 * [min, max]. Fingers that started (almost) together leave the scale as it was.
 */
export function pinchScale(input: { start: PinchStart; distance: number; min: number; max: number }): number {
  const { start } = input;
  const wanted = start.distance < 1 ? start.pxPerDay : (start.pxPerDay * input.distance) / start.distance;
  return Math.min(input.max, Math.max(input.min, wanted));
}

/**
 * The horizontal scroll that puts `time` at `x` pixels from the view's left edge, for a drawing that starts at
 * `start` after `pad` pixels at `pxPerDay` (never before the drawing's start).
 */
export function scrollFor(input: { time: number; x: number; start: number; pxPerDay: number; pad: number }): number {
  const day = 86_400_000;
  return Math.max(0, input.pad + ((input.time - input.start) / day) * input.pxPerDay - input.x);
}

/** The time at `x` pixels from the view's left edge, for the same drawing scrolled by `scrollLeft`. */
export function timeAt(input: { x: number; scrollLeft: number; start: number; pxPerDay: number; pad: number }): number {
  const day = 86_400_000;
  return input.start + ((input.scrollLeft + input.x - input.pad) / input.pxPerDay) * day;
}
