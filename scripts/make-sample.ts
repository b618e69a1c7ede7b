/**
 * Writes the bundled sample: sample/chatgpt-export.json (a synthetic ChatGPT `conversations.json` telling one
 * person's 14 months) and sample/ground-truth.json (what a good extractor should find, dated from the export).
 * Deterministic: no clock, no Math.random; every id and timestamp comes from a seeded PRNG per conversation.
 *
 *   npx tsx scripts/make-sample.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConversation } from './sample-story/export-format.js';
import { fall2024 } from './sample-story/fall-2024.js';
import { fall2025 } from './sample-story/fall-2025.js';
import { lateSpring2025 } from './sample-story/late-spring-2025.js';
import { Prng, seedFrom } from './sample-story/prng.js';
import { spring2025 } from './sample-story/spring-2025.js';
import { summer2025 } from './sample-story/summer-2025.js';
import { events2024 } from './sample-story/truth-events-2024.js';
import { events2025 } from './sample-story/truth-events-2025.js';
import { distractors, entities, periods } from './sample-story/truth.js';
import type { StoryConversation } from './sample-story/types.js';
import {
  activePath,
  checkConversation,
  checkDistractors,
  checkPeriods,
  dateEvents,
  userText,
} from './sample-story/verify.js';
import { winter2024 } from './sample-story/winter-2024.js';

const SAMPLE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'sample');

function buildSample() {
  const stories: StoryConversation[] = [...fall2024, ...winter2024, ...spring2025, ...lateSpring2025, ...summer2025];
  stories.push(...fall2025);
  const keys = new Set(stories.map((s) => s.key));
  if (keys.size !== stories.length) throw new Error('Two sample conversations share a key.');
  stories.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));

  const built = stories.map((story) => ({ story, exported: buildConversation(story, new Prng(seedFrom(story.key))) }));
  built.forEach(checkConversation);
  const allIds = built.flatMap((b) => [b.exported.id, ...Object.keys(b.exported.mapping)]);
  const duplicate = allIds.find((id, i) => id !== 'client-created-root' && allIds.indexOf(id) !== i);
  if (duplicate) throw new Error(`Duplicate id in the sample: ${duplicate}`);
  checkPeriods(built, periods);
  checkDistractors(built, distractors);

  const truth = {
    description: 'Ground truth for sample/chatgpt-export.json. Dates are UTC days of the user message quoted.',
    generatedBy: 'scripts/make-sample.ts',
    entities,
    periods,
    events: dateEvents(built, [...events2024, ...events2025]),
    distractors,
    conversations: built.map((b) => ({
      key: b.story.key,
      id: b.exported.conversation_id,
      title: b.exported.title,
      date: new Date(b.exported.create_time * 1000).toISOString().slice(0, 10),
      model: b.exported.default_model_slug,
    })),
  };
  return { built, truth };
}

function main(): void {
  const { built, truth } = buildSample();
  // Real exports list the newest conversation first.
  const exported = built.map((b) => b.exported).sort((a, b) => b.update_time - a.update_time);
  mkdirSync(SAMPLE_DIR, { recursive: true });
  writeFileSync(join(SAMPLE_DIR, 'chatgpt-export.json'), JSON.stringify(exported));
  writeFileSync(join(SAMPLE_DIR, 'ground-truth.json'), `${JSON.stringify(truth, null, 2)}\n`);

  let userMessages = 0;
  let assistantMessages = 0;
  let chars = 0;
  for (const conv of exported) {
    for (const m of activePath(conv)) {
      const text = userText(m);
      if (text !== null) userMessages++;
      if (m.author.role === 'assistant' && m.content.content_type === 'text') assistantMessages++;
      if (text !== null) chars += text.length;
      else if (m.content.content_type === 'text') chars += m.content.parts.join('').length;
    }
  }
  console.log(
    `sample/chatgpt-export.json: ${exported.length} conversations, ${userMessages} user and ${assistantMessages} ` +
      `assistant messages on active paths, ~${Math.round(chars / 4)} tokens of text`,
  );
  console.log(`sample/ground-truth.json: ${truth.events.length} dated events, ${truth.entities.length} entities`);
}

main();
