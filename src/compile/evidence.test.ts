import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from '../adapters/tokenizer/tiktoken.js';
import { episode, turns } from '../query/test-kit.js';
import { compileEvidence, passage, type EvidenceOptions } from './evidence.js';

const tokenizer = createTiktokenTokenizer();
const day = (d: number) => Date.UTC(2023, 4, d, 12);
const e1 = episode({ id: 'e1', title: 'Caroline & Melanie — session 1', createdAt: day(8), turnCount: 6 });
const e2 = episode({ id: 'e2', title: 'Caroline & Melanie — session 2', createdAt: day(20), turnCount: 4 });
const t1 = turns('e1', [
  ['Caroline', 'Hey Mel! How have you been?'],
  ['Melanie', 'Great! I got new running shoes last week.'],
  ['Caroline', 'Nice! What are they for?'],
  ['Melanie', 'Running, of course. I am training for a charity race.'],
  ['Caroline', 'I went to a support group yesterday, it was powerful.'],
  ['Melanie', 'That sounds amazing.'],
]);
const t2 = turns('e2', [
  ['Melanie', 'I painted a lake sunrise.'],
  ['Caroline', 'Wow!'],
  ['Melanie', 'It took me three weeks.'],
  ['Caroline', 'Beautiful colours.'],
]);
const all = new Map([
  ['e1', t1],
  ['e2', t2],
]);
const pick = (id: string, seq: number) => {
  const ep = id === 'e1' ? e1 : e2;
  const turn = all.get(id)?.[seq];
  if (!turn) throw new Error('no turn');
  return { episode: ep, turn };
};

function options(partial: Partial<EvidenceOptions>): EvidenceOptions {
  let n = 0;
  const numbers = new Map<string, number>();
  return {
    candidates: [],
    turnsOf: (id) => all.get(id) ?? [],
    limit: 1000,
    tokenizer,
    time: { now: day(30), tz: 'UTC', format: 'absolute', periods: [] },
    keywords: [],
    assistantWanted: false,
    cite: (id) => ` [${numbers.get(id) ?? (numbers.set(id, ++n), n)}]`,
    // The ranked selection alone; filling the rest of the budget is tested on its own below.
    fill: false,
    ...partial,
  };
}

/** The evidence section of one conversation of one turn, for a question with the word "sealant". */
function oneTurnSection(speaker: string, text: string, partial: Partial<EvidenceOptions>) {
  const ep = episode({ id: 'a', title: 'DIY decor', createdAt: day(1), turnCount: 1 });
  const [turn] = turns('a', [[speaker, text]]);
  if (!turn) throw new Error('no turn');
  return compileEvidence(
    options({ candidates: [{ episode: ep, turn }], turnsOf: () => [turn], keywords: ['sealant'], ...partial }),
  );
}

/** The line an assistant's turn gets as the only evidence, for a question with the word "sealant". */
function assistantLine(text: string, limit: number, assistantWanted: boolean): string {
  const section = oneTurnSection('assistant', text, { limit, assistantWanted });
  return section.lines.find((l) => l.startsWith('    Assistant:')) ?? '';
}

describe('compileEvidence', () => {
  it('shows whole turns grouped by conversation in time order, with relative times resolved and gaps marked', () => {
    const section = compileEvidence(options({ candidates: [pick('e2', 0), pick('e1', 4)] }));
    expect(section.lines).toEqual([
      '',
      'From the conversations (whole turns; relative times resolved in [brackets]):',
      '  • “Caroline & Melanie — session 1”, 8 May 2023 [1]',
      '    …',
      '    Caroline: I went to a support group yesterday [7 May 2023], it was powerful.',
      '  • “Caroline & Melanie — session 2”, 20 May 2023 [2]',
      '    Melanie: I painted a lake sunrise.',
    ]);
    expect(section.excerpts.map((x) => [x.episode.id, x.lines.map((l) => l.seq)])).toEqual([
      ['e1', [4]],
      ['e2', [0]],
    ]);
  });

  it('adds the reply to a question and the question a short reply answers', () => {
    const asked = compileEvidence(options({ candidates: [pick('e1', 2)] }));
    expect(asked.excerpts[0]?.lines.map((l) => l.seq)).toEqual([1, 2, 3]);
    const reply = compileEvidence(options({ candidates: [pick('e2', 2)] }));
    expect(reply.excerpts[0]?.lines.map((l) => l.seq)).toEqual([1, 2]);
  });

  /** The turns of one conversation shown when the turns at `ranked` (in that order) are the candidates. */
  function shownSeqs(lines: readonly [string, string][], ranked: readonly number[]): number[] | undefined {
    const ep = episode({ id: 'c', title: 'Two friends', createdAt: day(1), turnCount: lines.length });
    const said = turns('c', lines);
    const candidates = ranked.map((seq) => {
      const turn = said[seq];
      if (!turn) throw new Error('no turn');
      return { episode: ep, turn };
    });
    return compileEvidence(options({ candidates, turnsOf: () => said })).excerpts[0]?.lines.map((l) => l.seq);
  }

  it('a question asked in the middle of a turn brings the reply too; a turn that asks nothing does not', () => {
    const said: [string, string][] = [
      ['Joanna', 'I finally finished my first full screenplay and printed it last Friday.'],
      ['Nate', "Wow, that sounds awesome! What's it about? Glad it's all down!"],
      ['Joanna', "Thanks, Nate! It's a mix of drama and romance!"],
      ['Nate', 'Amazing. Rock on and I hope they love it, the festival people.'],
    ];
    expect(shownSeqs(said, [1])).toEqual([1, 2]);
    expect(shownSeqs(said, [3])).toEqual([3]);
  });

  it("a ranked turn already shown as another's reply still brings its own reply", () => {
    const said: [string, string][] = [
      ['Tim', 'By the way, have you been to Universal Studios? Planning a trip there next month.'],
      ['John', "Haven't been there yet, but I've heard great things about Universal Studios. Have you been before?"],
      ['Tim', "Nope, but it's my first time going. I'm super stoked for the Harry Potter stuff."],
      ['John', 'Have a great time!'],
    ];
    expect(shownSeqs(said, [0, 1])).toEqual([0, 1, 2]);
  });

  it.each([60, 90, 150, 400])('never takes more than its limit of %i tokens', (limit) => {
    const candidates = [0, 1, 2, 3, 4, 5].map((s) => pick('e1', s)).concat([0, 1, 2, 3].map((s) => pick('e2', s)));
    const section = compileEvidence(options({ candidates, limit }));
    expect(tokenizer.count(section.lines.join('\n'))).toBeLessThanOrEqual(limit);
    expect(section.tokens).toBeLessThanOrEqual(limit);
  });

  it('cuts a turn longer than a quarter of the budget to the sentences holding the question words', () => {
    const long = [
      'Sure, here is a plan.',
      ...Array.from({ length: 40 }, (_, i) => `Step ${i + 1} is about something unrelated to the question at hand.`),
      'For the sealant I recommend Mod Podge, applied in thin coats.',
      'Let it dry overnight.',
    ].join(' ');
    const ep = episode({ id: 'a', title: 'DIY decor', createdAt: day(1), turnCount: 1 });
    const [turn] = turns('a', [['assistant', long]]);
    if (!turn) throw new Error('no turn');
    const section = compileEvidence(
      options({
        candidates: [{ episode: ep, turn }],
        turnsOf: () => [turn],
        limit: 400,
        keywords: ['sealant', 'recommended'],
        assistantWanted: true,
      }),
    );
    const line = section.lines.find((l) => l.startsWith('    Assistant:')) ?? '';
    expect(line).toContain('For the sealant I recommend Mod Podge, applied in thin coats. Let it dry overnight.');
    expect(line).toContain('…');
    expect(tokenizer.count(line)).toBeLessThanOrEqual(110);
  });

  it('an assistant turn the question asks about may take most of the budget whole: the detail asked for rarely repeats the question', () => {
    const points = Array.from({ length: 40 }, (_, i) =>
      i < 12 ? `Point ${i} about sealant choices.` : `Step ${i} of the project.`,
    );
    points.splice(30, 0, 'For the vase, By Chloe sells a kit with everything.');
    const run = (assistantWanted: boolean) => assistantLine(points.join(' '), 1000, assistantWanted);
    // More than a quarter of the budget: shown whole only when the question asks what the assistant said.
    expect(tokenizer.count(points.join(' '))).toBeGreaterThan(250);
    expect(run(true)).toContain('By Chloe sells a kit');
    expect(run(false)).not.toContain('By Chloe');
  });

  it('an assistant turn the question does not ask about is held to 120 tokens; asked about, to a quarter of the budget', () => {
    const long = Array.from({ length: 60 }, (_, i) => `Point ${i} about sealant choices.`).join(' ');
    const run = (assistantWanted: boolean) => assistantLine(long, 2000, assistantWanted);
    expect(tokenizer.count(run(false))).toBeLessThanOrEqual(130);
    expect(tokenizer.count(run(true))).toBeGreaterThan(300);
  });
});

describe('filling the budget', () => {
  it("with room left, shows the rest of the ranked turns' conversations, nearest turns first", () => {
    const section = compileEvidence(options({ candidates: [pick('e2', 0), pick('e1', 4)], fill: true }));
    expect(section.excerpts.map((x) => [x.episode.id, x.lines.map((l) => l.seq)])).toEqual([
      ['e1', [0, 1, 2, 3, 4, 5]],
      ['e2', [0, 1, 2, 3]],
    ]);
    expect(tokenizer.count(section.lines.join('\n'))).toBeLessThanOrEqual(1000);
  });

  it('takes the nearest turns first when the room runs out, and never passes the limit', () => {
    const section = compileEvidence(options({ candidates: [pick('e1', 4)], fill: true, limit: 110 }));
    const seqs = section.excerpts[0]?.lines.map((l) => l.seq) ?? [];
    expect(seqs).toContain(4);
    expect(seqs.length).toBeGreaterThan(1);
    expect(seqs.length).toBeLessThan(6);
    // Nearest first: whatever was added is the turns around 4, not the start of the conversation.
    expect(seqs.every((seq) => seq >= 4 - (seqs.length - 1))).toBe(true);
    expect(tokenizer.count(section.lines.join('\n'))).toBeLessThanOrEqual(110);
  });

  it('an assistant reply held to 120 tokens is shown whole when the budget has room for it', () => {
    const long = Array.from({ length: 60 }, (_, i) => `Point ${i} about sealant choices.`).join(' ');
    const line = (limit: number) =>
      oneTurnSection('assistant', long, { limit, fill: true }).lines.find((l) => l.startsWith('    Assistant:')) ?? '';
    expect(line(2000)).toBe(`    Assistant: ${long}`);
    // Too long to show whole in 300 tokens (a quarter of the budget at most): cut, but to the room the budget
    // leaves rather than to the 120 tokens of an aside.
    const cut = line(300);
    expect(cut).not.toBe(`    Assistant: ${long}`);
    expect(tokenizer.count(cut)).toBeGreaterThan(200);
    expect(tokenizer.count(cut)).toBeLessThanOrEqual(300);
  });

  it('counts what it wrote and takes the room its high line counts left, never passing the limit', () => {
    // 30 conversations of 12 short turns, every turn ranked: far more than the budget holds.
    const convs = Array.from({ length: 30 }, (_, c) => {
      const ep = episode({ id: `c${c}`, title: `Chat ${c}`, createdAt: day(1 + (c % 28)), turnCount: 12 });
      const ts = turns(
        ep.id,
        Array.from({ length: 12 }, (_, i): [string, string] => [
          i % 2 ? 'Ana' : 'Ben',
          `Line ${i} of chat ${c}, fine.`,
        ]),
      );
      return { ep, ts };
    });
    const byId = new Map(convs.map((c) => [c.ep.id, c.ts]));
    const candidates = convs.flatMap((c) => c.ts.map((turn) => ({ episode: c.ep, turn })));
    for (const limit of [300, 1000, 2500]) {
      const section = compileEvidence(options({ candidates, turnsOf: (id) => byId.get(id) ?? [], limit }));
      const written = tokenizer.count(section.lines.join('\n')) + 1;
      expect(written).toBeLessThanOrEqual(limit);
      // Within a line or two of the limit: one line's high count is all that may be left unused.
      expect(written).toBeGreaterThan(limit - 30);
    }
  });

  it('room left with every turn shown goes to the sentences a cut turn left out, in the order written', () => {
    const sentences = Array.from({ length: 80 }, (_, i) => `Remark ${i} is about the garden.`);
    sentences[40] = 'The sealant I chose is marine varnish.';
    const section = (fill: boolean) => oneTurnSection('user', sentences.join(' '), { limit: 400, fill });
    const line = section(true).lines.find((l) => l.includes('marine varnish')) ?? '';
    // The matching sentence, then the turn's opening sentences, in the order written, up to the budget.
    expect(line).toContain('Remark 0 is about the garden. Remark 1 is about the garden.');
    expect(line.indexOf('Remark 0')).toBeLessThan(line.indexOf('marine varnish'));
    expect(section(true).tokens).toBeLessThanOrEqual(400);
    expect(tokenizer.count(section(true).lines.join('\n'))).toBeLessThanOrEqual(400);
    // Without filling, only the sentences that hold the question's words (and the one after each).
    const plain = section(false).lines.find((l) => l.includes('marine varnish')) ?? '';
    expect(plain).not.toContain('Remark 0 ');
    expect(tokenizer.count(plain)).toBeLessThan(tokenizer.count(line));
  });
});

describe('passage', () => {
  it('opens the turn when no sentence holds a question word', () => {
    const text = 'Alpha beta gamma. '.repeat(50);
    const out = passage(text, ['zebra'], 20, tokenizer);
    expect(out.endsWith('…')).toBe(true);
    expect(tokenizer.count(out)).toBeLessThanOrEqual(20);
  });

  it('keeps a list item whole with its number (no bare "2." beside a chosen sentence)', () => {
    const text =
      'Here are some ideas for charity events near you: 1. Run for the Cure, a race for cancer research. ' +
      '2. Food bank drives in your town. 3. A charity gala with an auction.';
    const out = passage(text, ['charity', 'cancer'], 40, tokenizer);
    expect(out).toContain('1. Run for the Cure, a race for cancer research.');
    expect(out).not.toMatch(/(^|\s)\d\.(\s+…|\s*$)/);
  });
});
