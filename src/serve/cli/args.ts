import { PieError } from '../../domain/errors.js';

export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new PieError('INVALID_ARGUMENT', `${flag} must be a positive whole number, not "${value}".`);
  }
  return n;
}
