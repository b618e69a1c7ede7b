/**
 * Two-finger pinch zoom for a horizontally scrolling view (the life timeline), from pointer events: the pure math
 * (how far the fingers moved apart, and where to scroll so the moment under them stays there) and a small tracker
 * of the touches on an element. Mouse and pen pointers are left alone (the buttons, keys and ctrl+wheel zoom).
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

/**
 * Follows the touches on `element`: when a second one comes down `onStart` hears the fingers' distance and midpoint
 * (relative to the element), then `onPinch` both as they move, and `onEnd` when one lifts. Returns a function that
 * stops listening.
 */
export function trackPinch(input: {
  element: HTMLElement;
  onStart: (fingers: { distance: number; mid: Point }) => void;
  onPinch: (fingers: { distance: number; mid: Point }) => void;
  onEnd: () => void;
}): () => void {
  const { element } = input;
  const touches = new Map<number, Point>();
  const local = (e: PointerEvent): Point => {
    const box = element.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const fingers = (): { distance: number; mid: Point } | null => {
    const [a, b] = [...touches.values()];
    return touches.size === 2 && a && b ? { distance: distance(a, b), mid: midpoint(a, b) } : null;
  };
  const down = (e: PointerEvent): void => {
    if (e.pointerType !== 'touch') return;
    touches.set(e.pointerId, local(e));
    const two = fingers();
    if (two) input.onStart(two);
  };
  const move = (e: PointerEvent): void => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, local(e));
    const two = fingers();
    if (!two) return;
    e.preventDefault();
    input.onPinch(two);
  };
  const up = (e: PointerEvent): void => {
    const pinching = touches.size === 2;
    if (touches.delete(e.pointerId) && pinching) input.onEnd();
  };
  const ends = ['pointerup', 'pointercancel'] as const;
  element.addEventListener('pointerdown', down);
  element.addEventListener('pointermove', move, { passive: false });
  for (const type of ends) element.addEventListener(type, up);
  return () => {
    element.removeEventListener('pointerdown', down);
    element.removeEventListener('pointermove', move);
    for (const type of ends) element.removeEventListener(type, up);
  };
}
