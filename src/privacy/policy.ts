import { PieError } from '../domain/errors.js';
import type { ModelRef } from '../ports/llm.js';
import { REDACTION_CATEGORIES, type RedactionCategory } from './detectors.js';

/**
 * Whether prompts to a model are redacted, and what: by default every category for a cloud provider (OpenAI,
 * Anthropic, an OpenAI-compatible server that is not on this machine) and nothing for a local one (Ollama, a
 * loopback server, the scripted fake). PIE_REDACT overrides: `off`, `on` (every category), or a comma list of
 * categories (`secret,email`). Pure.
 */
export function redactionPolicy(input: {
  ref: ModelRef;
  env: Readonly<Record<string, string | undefined>>;
}): Set<RedactionCategory> {
  const setting = input.env.PIE_REDACT?.trim().toLowerCase();
  if (setting === undefined || setting === '' || setting === 'auto') {
    return isCloud(input.ref) ? new Set(REDACTION_CATEGORIES) : new Set();
  }
  if (['off', 'none', '0', 'false', 'no'].includes(setting)) return new Set();
  if (['on', 'all', '1', 'true', 'yes'].includes(setting)) return new Set(REDACTION_CATEGORIES);
  const asked = setting
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const unknown = asked.filter((c) => !(REDACTION_CATEGORIES as readonly string[]).includes(c));
  if (unknown.length > 0) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `PIE_REDACT names ${unknown.map((c) => `"${c}"`).join(', ')}, not a category; use auto, on, off or a list of ${REDACTION_CATEGORIES.join(', ')}.`,
    );
  }
  return new Set(asked as RedactionCategory[]);
}

/** A provider whose server is not on this machine. */
export function isCloud(ref: ModelRef): boolean {
  if (ref.provider === 'openai' || ref.provider === 'anthropic') return true;
  if (ref.provider === 'openai-compatible') {
    try {
      const host = new URL(ref.baseUrl ?? '').hostname.replace(/^\[|\]$/g, '');
      return !(host === 'localhost' || host === '::1' || /^127\./.test(host));
    } catch {
      return true;
    }
  }
  return false;
}
