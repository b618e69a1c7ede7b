import { describe, expect, it } from 'vitest';
import { claudeMemoriesToEvents, claudeProjectToEvents } from './claude-extras.js';

const ctx = { tz: 'UTC', label: 'projects.json', exportedAt: Date.UTC(2025, 2, 1), index: 0 };

describe('Claude projects.json and memories.json', () => {
  it('a project is a dated source: its description, its instructions and its documents as attachments', () => {
    const [event] = claudeProjectToEvents(
      {
        uuid: 'p1',
        name: 'Tidepool',
        description: 'an app for research labs',
        prompt_template: 'Answer briefly.',
        created_at: '2025-01-10T08:00:00Z',
        updated_at: '2025-01-20T08:00:00Z',
        docs: [
          { filename: 'pricing.md', content: 'Lab plan: 49 dollars.' },
          { filename: 'logo.png', content: '' },
        ],
      },
      ctx,
    );
    expect(event?.kind).toBe('conversation');
    if (event?.kind !== 'conversation') return;
    const c = event.conversation;
    expect([c.source, c.externalId, c.title]).toEqual(['claude', 'project:p1', 'Claude project: Tidepool']);
    expect([c.createdAt, c.updatedAt]).toEqual([Date.UTC(2025, 0, 10, 8), Date.UTC(2025, 0, 20, 8)]);
    expect(c.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'My project Tidepool: an app for research labs'],
      ['user', 'Instructions for Claude in Tidepool: Answer briefly.'],
    ]);
    expect(c.turns[0]?.attachments).toEqual([{ name: 'pricing.md', text: 'Lab plan: 49 dollars.' }]);
    expect(event.dropped).toEqual({ document_without_text: 1 });
  });

  it.each([
    [{ name: 'No id' }, /has no uuid or no name/],
    [{ uuid: 'p2', name: 'Undated' }, /has no created_at date/],
    ['not an object', /is not a project object/],
  ])('skips %j with a reason', (raw, reason) => {
    const [event] = claudeProjectToEvents(raw, ctx);
    expect(event).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(reason) as unknown });
  });

  it("Claude's memory is one conversation dated at the export, with a turn per project named from projects.json", () => {
    const [event] = claudeMemoriesToEvents(
      [
        {
          conversations_memory: 'Alex builds Tidepool.',
          project_memories: { p1: 'Pricing is per lab.', p9: 'Unknown project memory.', p3: '  ' },
          account_uuid: 'acc-7',
        },
      ],
      { ...ctx, label: 'memories.json', projectNames: new Map([['p1', 'Tidepool']]) },
    );
    if (event?.kind !== 'conversation') throw new Error('expected a conversation');
    const c = event.conversation;
    expect([c.externalId, c.title, c.createdAt]).toEqual(['memory:acc-7', "Claude's memory of you", ctx.exportedAt]);
    expect(c.turns.map((t) => t.text)).toEqual([
      'Alex builds Tidepool.',
      'About Tidepool: Pricing is per lab.',
      'About project p9: Unknown project memory.',
    ]);
  });

  it('an empty memory is skipped, said', () => {
    const events = claudeMemoriesToEvents([{ conversations_memory: '', project_memories: {} }], {
      ...ctx,
      projectNames: new Map(),
    });
    expect(events).toMatchObject([{ kind: 'skipped', reason: expect.stringMatching(/no memory text/) as unknown }]);
  });
});
