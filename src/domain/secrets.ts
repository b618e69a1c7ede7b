/**
 * Credentials written into URLs never leave PIE's memory of a run: before a URL is printed or stored (errors, the
 * ingest run's options, a batch's error, a backup of those), the user and password of `scheme://user:KEY@host` and
 * the values of key-like query parameters (`?api_key=…`, `key`, `token`, `access_token`, `secret`, `password`,
 * `auth`, `sig`) become `***`. Pure; applies to every URL in a text.
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
const KEY_PARAMS =
  /([?&](?:api[_-]?key|apikey|key|token|access[_-]?token|secret|password|passwd|auth|sig|signature)=)[^&#\s]+/gi;

export function stripUrlCredentials(text: string): string {
  return text.replace(USERINFO, '$1***@').replace(KEY_PARAMS, '$1***');
}
