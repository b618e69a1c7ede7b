import type { Command } from 'commander';
import { compileTimeline, stateText } from '../../../compile/timeline.js';
import { longDate } from '../../../compile/time-format.js';
import { entityPeriods } from '../../../world/entity-periods.js';
import { resolveEntityType } from '../../../world/entity-types.js';
import { findEntity, othersNamed } from '../../../world/lookup.js';
import { loadTimeline } from '../../../world/timeline.js';
import { parsePositiveInt } from '../args.js';
import { startWord, type WorldStats } from '../../../domain/world.js';
import { undatedPeriods } from '../../../query/undated-periods.js';
import type { CommandContext } from '../context.js';
import { clip, localDate, num, plural, table } from '../format.js';
import type { ActionRunner } from '../run.js';

export function registerWorld(program: Command, run: ActionRunner): void {
  program
    .command('entities')
    .description('list entities, most important first (then most recently seen)')
    .option('--type <type>', 'only this type (person, project, tool, belief, decision, period, …; any case)')
    .option('--limit <n>', 'how many', '50')
    .action((flags: { type?: string; limit: string }) => run((ctx) => entities(ctx, flags)));
  program
    .command('entity')
    .description('show one entity: type, aliases, current state, relationships, the life periods it belongs to')
    .argument('<name...>', 'name, alias or id (of several with one name, the most important; the others are listed)')
    .action((name: string[]) => run((ctx) => entity(ctx, name.join(' '))));
  program
    .command('timeline')
    .description("an entity's history as a temporal narrative (--json: the entity and its ordered transitions)")
    .argument('<name...>', 'name, alias or id')
    .action((name: string[]) => run((ctx) => timeline(ctx, name.join(' '))));
  program
    .command('periods')
    .description('the life periods PIE found, in time order')
    .action(() => run(periods));
}

async function entities(ctx: CommandContext, flags: { type?: string; limit: string }): Promise<void> {
  const limit = parsePositiveInt(flags.limit, '--limit');
  const { store } = await ctx.services({ readonly: true });
  // As stored (`Tool` finds `tool`); an unknown type is an error naming the known ones.
  const type = flags.type ? await resolveEntityType({ store, type: flags.type }) : undefined;
  const list = await store.entities.list({ ...(type ? { type } : {}), limit, orderBy: 'importance' });
  const total = await store.entities.count(type ? { type } : {});
  const rows = list.map((e) => [e.name, e.type, localDate(e.lastSeen, ctx.config.tz), clip(stateText(e.state), 60)]);
  const text =
    list.length === 0
      ? type
        ? `No entities of type "${type}".`
        : noEntities(await store.stats())
      : `${table([['name', 'type', 'last seen', 'state'], ...rows])}\n${num(list.length)} of ${num(total)} shown.`;
  ctx.emit({ text, json: { total, entities: list } });
}

/** Why the list is empty: nothing ingested, extraction still to come, or conversations that named nothing. */
export function noEntities(stats: Pick<WorldStats, 'episodes' | 'episodesPendingExtraction'>): string {
  if (stats.episodes === 0) return 'No entities yet; run pie ingest first.';
  if (stats.episodesPendingExtraction > 0) {
    const waiting = stats.episodesPendingExtraction;
    return `No entities yet: ${plural(waiting, 'conversation')} ${waiting === 1 ? 'waits' : 'wait'} for extraction (pie ingest resumes it).`;
  }
  return (
    `No entities: ${plural(stats.episodes, 'conversation')} stored, none naming anything the extractor recognized ` +
    '(pie search still finds what they say; a model extracts more, see docs/llm.md).'
  );
}

async function entity(ctx: CommandContext, name: string): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const { store } = services;
  const e = await findEntity({ store, name });
  const [t, others] = await Promise.all([loadTimeline({ store, entity: e }), othersNamed({ store, entity: e })]);
  const tz = ctx.config.tz;
  const periods = entityPeriods({
    timeline: t,
    mentions: await store.mentions.forEntity(e.id),
    now: services.clock.now(),
  });
  const lines = [
    `${e.name} (${e.type})`,
    ...(e.aliases.length > 0 ? [`Also called: ${e.aliases.join(', ')}`] : []),
    `Seen ${localDate(e.firstSeen, tz)} to ${localDate(e.lastSeen, tz)}; ${num(t.transitions.length)} transitions; tier ${e.tier}; importance ${e.importance.toFixed(2)}.`,
    `State: ${stateText(e.state) || '(none recorded)'}`,
  ];
  const open = t.relationships.filter((r) => r.relationship.validTo === null);
  if (open.length > 0) {
    lines.push('Relationships:');
    for (const r of open) {
      const arrow =
        r.direction === 'out' ? `${r.relationship.type} → ${r.other.name}` : `← ${r.relationship.type} ${r.other.name}`;
      lines.push(`  ${arrow} (${startWord(r.relationship.type)} ${longDate(r.relationship.validFrom, tz)})`);
    }
  }
  if (periods.length > 0) {
    lines.push('Periods:');
    for (const p of periods) {
      const span = `${localDate(p.start, tz)} – ${p.ongoing ? 'ongoing' : localDate(p.end ?? p.start, tz)}`;
      const what = [
        ...(p.during ? ['first seen then'] : []),
        ...(p.mentions > 0 ? [plural(p.mentions, 'mention')] : []),
        ...(p.changes > 0 ? [plural(p.changes, 'change')] : []),
      ];
      lines.push(`  ${p.name} (${span})${what.length > 0 ? `: ${what.join(', ')}` : ''}`);
    }
  }
  for (const o of others)
    lines.push(`Another entity is called "${e.name}": ${o.name} (${o.type}); pie entity ${o.id} shows it.`);
  ctx.emit({
    text: lines.join('\n'),
    json: {
      entity: e,
      relationships: t.relationships,
      periods,
      sameName: others.map(({ id, name, type }) => ({ id, name, type })),
    },
  });
}

export async function timeline(ctx: CommandContext, name: string): Promise<void> {
  const services = await ctx.services({ readonly: true });
  const e = await findEntity({ store: services.store, name });
  const t = await loadTimeline({ store: services.store, entity: e });
  const text = compileTimeline({
    timeline: t,
    time: { now: services.clock.now(), tz: ctx.config.tz, format: 'hybrid' },
  });
  ctx.emit({
    text,
    json: { entity: e, transitions: t.transitions, relationships: t.relationships, sources: t.sources },
  });
}

async function periods(ctx: CommandContext): Promise<void> {
  const { store } = await ctx.services({ readonly: true });
  const list = await store.periods.list();
  const undated = await undatedPeriods(store);
  const tz = ctx.config.tz;
  const parts: string[] = [];
  if (list.length > 0) {
    parts.push(
      table(list.map((p) => [p.name, localDate(p.start, tz), p.end === null ? 'ongoing' : localDate(p.end, tz)])),
    );
  }
  if (undated.length > 0) {
    parts.push(
      `${list.length > 0 ? '\n' : ''}Named in the conversations, without dates (last mentioned):`,
      table(undated.map((p) => [p.name, p.status ?? '', localDate(p.lastSeen, tz)])),
    );
  }
  const text = parts.length === 0 ? 'No periods yet; they come from extraction (pie ingest).' : parts.join('\n');
  ctx.emit({ text, json: { periods: list, undated } });
}
