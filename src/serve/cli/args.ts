import { PieError } from '../../domain/errors.js';

export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new PieError('INVALID_ARGUMENT', `${flag} must be a positive whole number, not "${value}".`);
  }
  return n;
}

/** A whole number of at least 0, for options where 0 turns something off. */
export function parseNonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) {
    throw new PieError('INVALID_ARGUMENT', `${flag} must be a whole number (0 turns it off), not "${value}".`);
  }
  return n;
}

/** A TCP port for --port: 0 (the system picks a free one) to 65535. */
export function parsePort(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65_535) {
    throw new PieError('INVALID_ARGUMENT', `--port must be a whole number from 0 to 65535, not "${value}".`);
  }
  return n;
}
