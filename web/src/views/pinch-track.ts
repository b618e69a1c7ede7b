import { distance, midpoint, type Point } from './pinch.js';

/**
 * Follows a two-finger pinch on `element` from pointer events (mouse and pen pointers are left alone: the timeline's
 * buttons, keys and ctrl+wheel zoom serve them): when a second one comes down `onStart` hears the fingers' distance and midpoint
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
