/**
 * Pass 1: find the names a batch introduces (projects, people, organizations, places, aliases), so that pass 2 can
 * recognize every later mention of them, in any sentence of the batch.
 */
import { groupBy } from '../../domain/collections.js';
import type { Preamble } from '../types.js';
import type { EntityFinding, RelationshipFinding, Sentence } from './findings.js';
import { resolveCandidates, sentenceNameCandidates, type NameCandidate } from './entities.js';
import { isAnyGazetteerForm } from './gazetteer.js';
import { NOT_A_NAME } from './lexicon.js';
import type { SpanTagger } from './nlp.js';
import {
  anonymousSelfAliasOf,
  findAliasDefinitions,
  inferAcronymAliases,
  selfAliasOf,
  type AliasFinding,
} from './patterns/aliases.js';
import { findProjects } from './patterns/projects.js';
import { buildRegistry, type DiscoveredName, type Registry } from './registry.js';

export interface Discovery {
  registry: Registry;
  entities: EntityFinding[];
  relationships: RelationshipFinding[];
  aliases: AliasFinding[];
}

const ORG_SUFFIX =
  /^(.+?)\s+(?:Labs?|Ventures|Capital|Partners|Inc\.?|Corp\.?|LLC|Ltd\.?|Technologies|Systems|Studios?|Group|Robotics|AI)$/;

/** "Brightline Labs" is also called "Brightline". */
function shortOrgName(name: string): string | null {
  const head = ORG_SUFFIX.exec(name)?.[1];
  if (!head || !/^\p{Lu}[\p{L}-]{3,}$/u.test(head)) return null;
  if (NOT_A_NAME.has(head.toLowerCase()) || isAnyGazetteerForm(head)) return null;
  return head;
}

export function discover(input: {
  sentences: Sentence[];
  preamble: Preamble;
  tagger: SpanTagger | null;
  /** Who "I" is when the source names no speaker. */
  anonymousSelf: string;
}): Discovery {
  const base = buildRegistry({ preamble: input.preamble, discovered: [] });
  const entities: EntityFinding[] = [];
  const aliases: AliasFinding[] = [];
  const candidates: NameCandidate[] = [];
  for (const s of input.sentences) {
    entities.push(...findProjects(s, base));
    aliases.push(...findAliasDefinitions(s));
    candidates.push(...sentenceNameCandidates(s, input.tagger, base));
  }
  const projectNames = new Set(entities.map((e) => e.name.toLowerCase()));
  const speakers = [...new Set(input.sentences.map((s) => s.self))];
  // A speaker's name for themselves ("you can call me Lulu") is theirs, not another person's; an unnamed user's only
  // where the turn is no draft or game.
  const turnOf = (s: Sentence): string => `${s.episodeId}\u0000${s.turn}`;
  const turns = groupBy(input.sentences, turnOf);
  const selfAliases = input.sentences.flatMap(
    (s) =>
      (s.self === input.anonymousSelf ? anonymousSelfAliasOf(s, turns.get(turnOf(s)) ?? []) : selfAliasOf(s)) ?? [],
  );
  const selfNamed = new Set(selfAliases.map((a) => a.alias.toLowerCase()));
  const resolved = resolveCandidates({
    candidates: candidates.filter((c) => !selfNamed.has(c.name.toLowerCase())),
    base,
    projectNames,
    speakers,
  });
  entities.push(...resolved.entities);
  for (const e of resolved.entities) {
    const short = e.type === 'organization' ? shortOrgName(e.name) : null;
    if (short) aliases.push({ name: e.name, alias: short, episodeId: e.episodeId });
  }
  const names = new Map<string, DiscoveredName>();
  const addName = (n: DiscoveredName): void => {
    const prior = names.get(n.name.toLowerCase());
    if (prior) prior.aliases.push(...n.aliases.filter((a) => !prior.aliases.includes(a)));
    else names.set(n.name.toLowerCase(), { ...n, aliases: [...n.aliases] });
  };
  for (const e of entities) addName({ name: e.name, type: e.type, aliases: e.aliases });
  for (const a of selfAliases) addName({ name: a.name, type: 'person', aliases: [a.alias] });
  aliases.push(...selfAliases);
  const attach = (list: AliasFinding[]): void => {
    for (const a of list) {
      const target = base.get(a.name) ?? names.get(a.name.toLowerCase());
      if (!target) continue;
      addName({ name: target.name, type: target.type, aliases: [a.alias] });
    }
  };
  attach(aliases);
  const first = buildRegistry({ preamble: input.preamble, discovered: [...names.values()] });
  const inferred = inferAcronymAliases({
    sentences: input.sentences,
    names: first.all().filter((e) => e.origin !== 'gazetteer' || e.type === 'organization'),
    isKnownForm: (t) => first.get(t) !== undefined,
  });
  attach(inferred);
  aliases.push(...inferred);
  const registry = buildRegistry({ preamble: input.preamble, discovered: [...names.values()] });
  return { registry, entities, relationships: resolved.relationships, aliases };
}
