import { describe, expect, it } from 'vitest';
import { stripUrlCredentials } from './secrets.js';

describe('stripUrlCredentials', () => {
  it.each([
    ['openai-compatible:http://user:sk-SECRET@host:8080/v1#m', 'openai-compatible:http://***@host:8080/v1#m'],
    ['https://sk-SECRET@api.example.com/v1', 'https://***@api.example.com/v1'],
    ['Could not reach http://a:b@127.0.0.1:9/v1: refused', 'Could not reach http://***@127.0.0.1:9/v1: refused'],
    ['https://host/v1?api_key=SECRET&x=1', 'https://host/v1?api_key=***&x=1'],
    ['https://host/v1?x=1&token=SECRET#m', 'https://host/v1?x=1&token=***#m'],
    ['https://host/path?key=abc', 'https://host/path?key=***'],
    ['http://127.0.0.1:8080/v1#qwen', 'http://127.0.0.1:8080/v1#qwen'],
    ['email me at a@b.com', 'email me at a@b.com'],
    ['two: http://u:p@a/ and https://v:q@b/', 'two: http://***@a/ and https://***@b/'],
  ])('%s', (input, expected) => {
    expect(stripUrlCredentials(input)).toBe(expected);
    expect(stripUrlCredentials(input)).not.toMatch(/SECRET/);
  });
});
