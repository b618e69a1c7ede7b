/** A tiny DOM builder: text is always set as text (never parsed as HTML), so data from the world cannot inject markup. */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, '').toLowerCase(), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
  return el;
}

export function clear(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

export function announce(text: string): void {
  const el = document.getElementById('announcer');
  if (el) el.textContent = text;
}

export function date(iso: string | null | undefined): string {
  if (!iso) return '—';
  return iso.slice(0, 10);
}

/** A state value as text: ∅ for none (never "null"). */
export function valueText(v: unknown): string {
  return v === undefined || v === null || v === '' ? '∅' : String(v);
}

/** `a → b` for a state; values compact. */
export function stateText(state: Record<string, unknown> | null | undefined): string {
  if (!state) return '';
  return Object.entries(state)
    .map(([k, v]) => `${k}: ${valueText(v)}`)
    .join(', ');
}

/** An entity's page: by name, with its id when known (two entities can share a name: "Luna" the cat and the user). */
export function entityHref(name: string, id?: string): string {
  return `#/entity/${encodeURIComponent(name)}${id ? `?id=${encodeURIComponent(id)}` : ''}`;
}

export function episodeHref(id: string, seq?: number | null): string {
  return `#/episode/${encodeURIComponent(id)}${seq === undefined || seq === null ? '' : `?seq=${seq}`}`;
}

/** A labelled form field. */
export function field(label: string, control: HTMLElement): HTMLElement {
  const id = control.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), control);
}

export function errorBox(error: unknown): HTMLElement {
  const message = error instanceof Error ? error.message : String(error);
  return h('p', { class: 'error', role: 'alert' }, message);
}

/** A model description without a long local path (fake:/a/b/script.json → fake:script.json). */
export function shortModel(text: string): string {
  return text.replace(/(fake:)\S*\/([^/\s]+)/, '$1$2');
}

/**
 * An error shown next to the form that caused it (the form stays as typed), with the server's suggestions as buttons
 * that put a suggestion in place and try again.
 */
export function formError(error: unknown, onPick?: (suggestion: string) => void): HTMLElement {
  const box = errorBox(error);
  const suggestions = (error as { suggestions?: unknown }).suggestions;
  if (!onPick || !Array.isArray(suggestions) || suggestions.length === 0) return box;
  return h(
    'div',
    { class: 'form-error' },
    box,
    h(
      'p',
      { class: 'suggestions' },
      'Try: ',
      ...suggestions
        .filter((x): x is string => typeof x === 'string')
        .map((x) => h('button', { type: 'button', class: 'small', onclick: () => onPick(x) }, x)),
    ),
  );
}
