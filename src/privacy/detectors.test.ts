import { describe, expect, it } from 'vitest';
import { findSensitive, ibanValid, luhnValid, REDACTION_CATEGORIES, type RedactionCategory } from './detectors.js';

const ALL = new Set(REDACTION_CATEGORIES);
const found = (text: string): [RedactionCategory, string][] =>
  findSensitive(text, ALL).map((s) => [s.category, s.value]);

describe('findSensitive', () => {
  it.each([
    ['my key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345', 'secret', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
    ['ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwx', 'secret', 'sk-ant-api03-abcdefghijklmnopqrstuvwx'],
    ['aws AKIAIOSFODNN7EXAMPLE in the config', 'secret', 'AKIAIOSFODNN7EXAMPLE'],
    ['token ghp_0123456789abcdefghijABCDEFGHIJ0123456789', 'secret', 'ghp_0123456789abcdefghijABCDEFGHIJ0123456789'],
    ['slack xoxb-1234567890-abcdefghij', 'secret', 'xoxb-1234567890-abcdefghij'],
    ['Authorization: Bearer abcdefghijklmnop1234.xyz', 'secret', 'abcdefghijklmnop1234.xyz'],
    ['postgres://maya:s3cretPass@db.example.com:5432/app', 'secret', 's3cretPass'],
    ['my password is hunter22!', 'secret', 'hunter22!'],
    ['the wifi passphrase: correct-horse-battery', 'secret', 'correct-horse-battery'],
    ['write to maya.chen@umd.edu tomorrow', 'email', 'maya.chen@umd.edu'],
    ['call me at (415) 555-0132', 'phone', '(415) 555-0132'],
    ['my number is +44 20 7946 0958', 'phone', '+44 20 7946 0958'],
    ['card 4111 1111 1111 1111 expires soon', 'card', '4111 1111 1111 1111'],
    ['IBAN DE89 3704 0044 0532 0130 00 please', 'iban', 'DE89 3704 0044 0532 0130 00'],
    ['SSN 123-45-6789 on the form', 'government_id', '123-45-6789'],
    ['I live at 742 Evergreen Terrace now', 'address', '742 Evergreen Terrace'],
    ['moved to 1600 Pennsylvania Avenue, Apt 4B last week', 'address', '1600 Pennsylvania Avenue, Apt 4B'],
  ])('%s', (text, category, value) => {
    expect(found(text)).toEqual([[category, value]]);
  });

  it('a private key block is one secret', () => {
    const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\nAAAA\n-----END OPENSSH PRIVATE KEY-----';
    expect(found(`here:\n${key}\nthanks`)).toEqual([['secret', key]]);
  });

  it.each([
    'We shipped v2.3.1 on 2024-05-01 at 10:30.',
    'The meeting is 3-4 pm, room 101.',
    'I ran 5 km in 27 minutes and 12 seconds.',
    'The invoice number is 1234567890123 (not a card: checksum fails).',
    'Order 4111 1111 1111 1112 failed the checksum.',
    'Tidepool raised $1,500,000 in 2025.',
    'Use the sk-learn library and token limits of 4000.',
    'The password policy changed.',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(found(text)).toEqual([]);
  });

  it('only the categories asked for', () => {
    const text = 'maya@x.org, card 4111 1111 1111 1111';
    expect(findSensitive(text, new Set(['email'] as const)).map((s) => s.category)).toEqual(['email']);
  });
});

describe('checksums', () => {
  it('Luhn and IBAN', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('0000000000000000')).toBe(false);
    expect(ibanValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanValid('GB82 WEST 1234 5698 7654 33')).toBe(false);
  });
});
