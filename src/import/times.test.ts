import { describe, expect, it } from 'vitest';
import {
  fromUnixAuto,
  parseDayKey,
  parseFlexibleTime,
  parseIsoTime,
  parseLocomoDate,
  parseLongMemEvalDate,
} from './times.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

describe('source time parsing', () => {
  it.each([
    ['1:56 pm on 8 May, 2023', 'UTC', '2023-05-08T13:56:00.000Z'],
    ['12:19 am on 4 January, 2024', 'UTC', '2024-01-04T00:19:00.000Z'],
    ['12:05 pm on 4 January, 2024', 'UTC', '2024-01-04T12:05:00.000Z'],
    ['10:37 am on 27 June, 2023', 'Europe/Berlin', '2023-06-27T08:37:00.000Z'],
    ['9:55 AM on 22 Oct 2023', 'UTC', '2023-10-22T09:55:00.000Z'],
    ['1:56 pm on 31 February, 2023', 'UTC', null],
    ['13:56 pm on 8 May, 2023', 'UTC', null],
    ['8 May 2023', 'UTC', null],
  ])('LoCoMo %s in %s', (text, tz, expected) => {
    expect(iso(parseLocomoDate(text, tz))).toBe(expected);
  });

  it.each([
    ['2023/05/20 (Sat) 02:21', 'UTC', '2023-05-20T02:21:00.000Z'],
    ['2023/05/20 (Sat) 02:21', 'America/New_York', '2023-05-20T06:21:00.000Z'],
    ['2023/05/20', 'UTC', '2023-05-20T00:00:00.000Z'],
    ['2023-05-20 02:21', 'UTC', null],
  ])('LongMemEval %s in %s', (text, tz, expected) => {
    expect(iso(parseLongMemEvalDate(text, tz))).toBe(expected);
  });

  it.each([
    ['2024-03-10', 'Europe/Berlin', '2024-03-09T23:00:00.000Z'],
    ['2024-03-10T14:30', 'UTC', '2024-03-10T14:30:00.000Z'],
    ['2024-03-10 14:30:15', 'Asia/Tokyo', '2024-03-10T05:30:15.000Z'],
    ['2024-03-15T09:42:10.512000Z', 'Asia/Tokyo', '2024-03-15T09:42:10.512Z'],
    ['2024-03-15T09:42:10+02:00', 'UTC', '2024-03-15T07:42:10.000Z'],
    ['2024-13-01', 'UTC', null],
    ['yesterday', 'UTC', null],
  ])('ISO %s in %s', (text, tz, expected) => {
    expect(iso(parseIsoTime(text, tz))).toBe(expected);
  });

  it.each([
    [1714585031.148505, 1714585031149],
    [1714585031149, 1714585031149],
    [0, 0],
    [Number.NaN, null],
  ])('unix %s -> %s ms', (value, expected) => {
    expect(fromUnixAuto(value)).toBe(expected);
  });

  it('reads numbers, digit strings, ISO strings and Dates; rejects anything else', () => {
    expect(parseFlexibleTime(1713607200, 'UTC')).toBe(1713607200000);
    expect(parseFlexibleTime('1713607200000', 'UTC')).toBe(1713607200000);
    expect(parseFlexibleTime('2024-04-20', 'UTC')).toBe(Date.parse('2024-04-20T00:00:00Z'));
    expect(parseFlexibleTime(new Date('2024-04-20T00:00:00Z'), 'UTC')).toBe(Date.parse('2024-04-20T00:00:00Z'));
    expect(parseFlexibleTime(true, 'UTC')).toBeNull();
    expect(parseFlexibleTime({}, 'UTC')).toBeNull();
  });

  it('reads MemoryBank day keys at a local hour', () => {
    expect(iso(parseDayKey('2023-04-27', { tz: 'Asia/Shanghai', hour: 12 }))).toBe('2023-04-27T04:00:00.000Z');
    expect(parseDayKey('27.04.2023', { tz: 'UTC', hour: 12 })).toBeNull();
  });
});
