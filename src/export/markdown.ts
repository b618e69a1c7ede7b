import { localDayKey } from '../domain/time.js';
import type { MentalModel, Summary } from '../ports/pyramid-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { BASE_MODELS, baseModel } from '../pyramid/models.js';
import { getPyramid } from '../pyramid/pyramid.js';
import { safeFileName } from './file-names.js';
import { syncFiles, type ExportFile, type SyncReport } from './sync.js';
import { frontMatter } from './yaml.js';

/** Where the base models go (spec: Output Files); every other model is models/<name>.md. */
export const CORE_MODEL_FILES: Readonly<Record<string, string>> = {
  self: 'SOUL.md',
  user: 'USER.md',
  system: 'TOOLS.md',
};

/** Sections of a model file by tier: up to 3 days of detail, up to 27 days, and everything older. Pure. */
export function sectionOf(tier: number): 'Recent' | 'This Month' | 'Historical' {
  if (tier <= 1) return 'Recent';
  if (tier <= 3) return 'This Month';
  return 'Historical';
}

export function modelFile(model: Pick<MentalModel, 'name'>): string {
  return CORE_MODEL_FILES[model.name] ?? `models/${safeFileName(model.name)}.md`;
}

const title = (name: string): string =>
  name
    .split('-')
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

function renderModel(model: MentalModel, summaries: Summary[], tz: string): string {
  const sections = new Map<string, string[]>();
  for (const s of summaries) {
    const name = sectionOf(s.tier);
    const start = localDayKey(s.start, tz);
    const end = localDayKey(s.end - 1, tz);
    const label = `<!-- tier ${s.tier}, ${start === end ? start : `${start} to ${end}`}${s.method === 'deterministic' ? ', selected without a model' : ''} -->`;
    sections.set(name, [...(sections.get(name) ?? []), label, s.text]);
  }
  const methods = [...new Set(summaries.map((s) => s.method))].sort();
  const lines = [
    frontMatter([
      ['name', model.name],
      ['description', model.description],
      ['summarized_by', methods.length > 0 ? methods.join(', ') : undefined],
    ]),
    '',
    `# ${title(model.name)}`,
  ];
  if (summaries.length === 0) lines.push('', 'Nothing summarized yet (run pie summarize).');
  for (const name of ['Recent', 'This Month', 'Historical']) {
    const body = sections.get(name);
    if (body) lines.push('', `## ${name}`, ...body);
  }
  return `${lines.join('\n')}\n`;
}

function renderIndex(models: MentalModel[]): string {
  const core = models.filter((m) => CORE_MODEL_FILES[m.name] !== undefined);
  const other = models.filter((m) => CORE_MODEL_FILES[m.name] === undefined);
  const entry = (m: MentalModel): string =>
    `- [${title(m.name)}](${encodeURI(modelFile(m))})${m.description ? `: ${m.description}` : ''}`;
  const lines = [
    '# Memory',
    '',
    'Exported by PIE from pyramid memory (pie summarize).',
    '',
    '## Core',
    ...core.map(entry),
  ];
  if (other.length > 0) lines.push('', '## Models', ...other.map(entry));
  return `${lines.join('\n')}\n`;
}

async function* memoryFiles(store: WorldStore, tz: string): AsyncGenerator<ExportFile> {
  const stored = await store.pyramid.models();
  // The core files exist even before the first pie summarize made the base models.
  const missing = BASE_MODELS.filter((name) => !stored.some((m) => m.name === name)).map((name) => baseModel(name, 0));
  const models = [...stored, ...missing].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const model of models) {
    if (missing.includes(model)) {
      yield { path: modelFile(model), content: renderModel(model, [], tz) };
      continue;
    }
    const pyramid = await getPyramid({ store, model: model.name });
    // Oldest context first: Historical … Recent reads top-down in the file by section; inside a section, in time order.
    const summaries = pyramid.tiers.flatMap((t) => t.summaries);
    yield { path: modelFile(model), content: renderModel(model, summaries, tz) };
  }
  yield { path: 'MEMORY.md', content: renderIndex(models) };
}

/**
 * Exports pyramid memory as the spec's agent-workspace markdown (SOUL.md, USER.md, TOOLS.md, models/<name>.md,
 * MEMORY.md): front matter with name and description, then the model's pyramid in Recent / This Month /
 * Historical sections. Unchanged files are not rewritten (content hashes).
 */
export async function exportMarkdown(input: { store: WorldStore; dir: string; tz: string }): Promise<SyncReport> {
  return syncFiles({ dir: input.dir, kind: 'markdown', files: memoryFiles(input.store, input.tz) });
}
