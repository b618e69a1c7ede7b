import { describe, expect, it } from 'vitest';
import { useWorld } from './helpers.js';

const world = useWorld();

const TS = '2026-01-16T03:00:00Z';

/**
 * The commands of the sleep-mode workflow in the KIP specification (Phases 1–13), run in order against one world:
 * what a maintenance agent actually sends, with its parameters.
 */
describe('the sleep-mode workflow of the specification', () => {
  it('runs end to end', async () => {
    const w = world();
    // Formation left: two events, a preference pair in conflict, a task, an orphan and a stale Event.
    await w.ok(`UPSERT {
      CONCEPT ?e1 { {type: "Event", name: "Event:2026-01-10:lunch"} SET ATTRIBUTES { start_time: "2026-01-10T12:00:00Z", content_summary: "Lunch with Alice", event_class: "Conversation", salience_score: 40 }
        SET PROPOSITIONS { ("involves", {type: "Person", name: "$self"}) ("belongs_to_domain", {type: "Domain", name: "Unsorted"}) } }
      CONCEPT ?e2 { {type: "Event", name: "Event:2025-12-01:old"} SET ATTRIBUTES { start_time: "2025-12-01T09:00:00Z", content_summary: "Routine", event_class: "Conversation" } }
      CONCEPT ?alice { {type: "Person", name: "Alice"} }
      CONCEPT ?veg { {type: "Preference", name: "vegetarian"} }
      CONCEPT ?meat { {type: "Preference", name: "eats meat"} }
      CONCEPT ?task { {type: "SleepTask", name: "task-1"} SET ATTRIBUTES { status: "pending", priority: 5, requested_action: "archive" }
        SET PROPOSITIONS { ("assigned_to", {type: "Person", name: "$system"}) } }
    } WITH METADATA { source: "Formation", author: "$self", confidence: 0.8, created_at: "2026-01-10T12:00:00Z" }`);
    await w.ok(`UPSERT {
      PROPOSITION ?old { ({type: "Person", name: "Alice"}, "prefers", {type: "Preference", name: "vegetarian"}) } WITH METADATA { created_at: "2024-06-01T00:00:00Z" }
      PROPOSITION ?new { ({type: "Person", name: "Alice"}, "prefers", {type: "Preference", name: "eats meat"}) } WITH METADATA { created_at: "2026-01-05T00:00:00Z" }
    } WITH METADATA { source: "Formation", author: "$self", confidence: 0.8 }`);

    // Phase 1A: assessment probes.
    const tasks = await w.ok(`FIND(?task.name) WHERE {
?task {type: "SleepTask"}
(?task, "assigned_to", {type: "Person", name: "$system"})
FILTER(?task.attributes.status == "pending")
} ORDER BY ?task.attributes.priority DESC LIMIT 100`);
    expect(tasks).toEqual(['task-1']);
    expect(
      await w.ok('FIND(COUNT(?n)) WHERE { (?n, "belongs_to_domain", {type: "Domain", name: "Unsorted"}) }'),
    ).toEqual([1]);
    const orphans = await w.ok(
      `FIND(?n.type, ?n.name, ?n.metadata.created_at) WHERE {
?n {type: :type}
NOT { (?n, "belongs_to_domain", ?d) }
} LIMIT 100`,
      { type: 'Event' },
    );
    expect(orphans).toEqual([['Event', 'Event:2025-12-01:old', '2026-01-10T12:00:00Z']]);
    const stale = await w.ok(
      `FIND(?e.name, ?e.attributes.start_time, ?e.attributes.content_summary) WHERE {
?e {type: "Event"}
FILTER(?e.attributes.start_time < :cutoff_date)
NOT { (?e, "consolidated_to", ?semantic) }
} LIMIT 100`,
      { cutoff_date: '2026-01-09T00:00:00Z' },
    );
    expect(stale).toEqual([['Event:2025-12-01:old', '2025-12-01T09:00:00Z', 'Routine']]);
    const health = await w.ok<[string, number][]>(`FIND(?d.name, COUNT(?n)) WHERE {
?d {type: "Domain"}
OPTIONAL { (?n, "belongs_to_domain", ?d) }
} ORDER BY COUNT(?n) ASC LIMIT 20`);
    expect(health.map(([name]) => name)).toEqual(['Archived', 'Unsorted', 'CoreSchema']);
    expect(health[0]?.[1]).toBe(0);

    // Phase 1B: salience scoring.
    await w.ok(
      `UPSERT { CONCEPT ?event { {type: "Event", name: :event_name} SET ATTRIBUTES { salience_score: :score, salience_scored_at: :timestamp } } }
WITH METADATA { source: "SalienceScoring", author: "$system", created_at: :timestamp, confidence: 0.8 }`,
      { event_name: 'Event:2026-01-10:lunch', score: 65, timestamp: TS },
    );

    // Phase 2: a task moves through its states.
    await w.ok(
      `UPSERT { CONCEPT ?task { {type: "SleepTask", name: :task_name} SET ATTRIBUTES { status: "completed", completed_at: :timestamp, result: :result_summary } } }
WITH METADATA { source: "SleepCycle", author: "$system", created_at: :timestamp, expires_at: :task_expires_at }`,
      { task_name: 'task-1', timestamp: TS, result_summary: 'archived', task_expires_at: '2026-01-30T00:00:00Z' },
    );

    // Phase 3: reclassify out of Unsorted.
    await w.ok(
      `UPSERT {
CONCEPT ?target_domain { {type: "Domain", name: :domain_name} SET ATTRIBUTES { description: :domain_desc } }
CONCEPT ?item { {type: :item_type, name: :item_name} SET PROPOSITIONS { ("belongs_to_domain", ?target_domain) } }
}
WITH METADATA { source: "SleepReclassification", author: "$system", confidence: 0.85, created_at: :timestamp }`,
      {
        domain_name: 'Social',
        domain_desc: 'Friends and social life',
        item_type: 'Event',
        item_name: 'Event:2026-01-10:lunch',
        timestamp: TS,
      },
    );
    expect(
      await w.ok(
        `DELETE PROPOSITIONS ?link
WHERE {
?link ({type: :item_type, name: :item_name}, "belongs_to_domain", {type: "Domain", name: "Unsorted"})
}`,
        { item_type: 'Event', item_name: 'Event:2026-01-10:lunch' },
      ),
    ).toEqual({ deleted: 1 });

    // Phase 5A: archive the stale event with a TTL; a landmark promotion and TTL strip on the other.
    await w.ok(
      `UPSERT {
CONCEPT ?event {
{type: "Event", name: :event_name}
SET ATTRIBUTES { consolidation_status: "archived", consolidated_at: :timestamp }
SET PROPOSITIONS { ("belongs_to_domain", {type: "Domain", name: "Archived"}) }
}
}
WITH METADATA {
source: "SleepConsolidation", author: "$system",
created_at: :timestamp,
expires_at: :archive_expires_at // e.g., archived_at + 30 days
}`,
      { event_name: 'Event:2025-12-01:old', timestamp: TS, archive_expires_at: '2026-01-15T00:00:00Z' },
    );
    await w.ok(
      `UPSERT { CONCEPT ?landmark { {type: "Event", name: :event_name} } }
WITH METADATA { source: "LandmarkPromotion", author: "$system", created_at: :timestamp, memory_tier: "long-term", expires_at: "2027-01-01T00:00:00Z" }`,
      { event_name: 'Event:2026-01-10:lunch', timestamp: TS },
    );
    await w.ok('DELETE METADATA {"expires_at"} FROM ?landmark WHERE { ?landmark {type: "Event", name: :event_name} }', {
      event_name: 'Event:2026-01-10:lunch',
    });

    // Phase 7: confidence decay over every predicate but belongs_to_domain.
    const decayed = await w.ok<{ updated: number }>(
      `UPDATE ?link
SET METADATA {
confidence: CLAMP(MUL(?link.metadata.confidence, :decay_factor), 0.0, 1.0),
decay_applied_at: :timestamp
}
WHERE {
?link (?s, ?p, ?o)
FILTER(?p != "belongs_to_domain")
FILTER(IS_NULL(?link.metadata.superseded) || ?link.metadata.superseded != true)
FILTER(IS_NOT_NULL(?link.metadata.created_at))
FILTER(?link.metadata.created_at < :decay_threshold)
FILTER(?link.metadata.confidence > 0.3 && ?link.metadata.confidence < 1.0)
}
LIMIT 500`,
      { decay_factor: 0.95, timestamp: TS, decay_threshold: '2026-01-01T00:00:00Z' },
    );
    expect(decayed).toEqual({ updated: 1 });

    // Phase 9: contradiction resolution by link ids.
    const [pair] = await w.ok<[string, string][]>(
      `FIND(?old_link.id, ?current_link.id)
WHERE {
?old_link ({type: "Person", name: :person_name}, "prefers", {type: "Preference", name: :old_pref})
?current_link ({type: "Person", name: :person_name}, "prefers", {type: "Preference", name: :current_pref})
}
LIMIT 1`,
      { person_name: 'Alice', old_pref: 'vegetarian', current_pref: 'eats meat' },
    );
    const [oldId, currentId] = pair ?? [];
    await w.ok(
      `UPSERT {
PROPOSITION ?old_link {
(id: :old_link_id)
}
}
WITH METADATA {
source: "ContradictionResolution", author: "$system",
created_at: :timestamp,
superseded: true, superseded_at: :timestamp,
superseded_by: :current_link_id, superseded_reason: :reason,
confidence: 0.1
}
UPSERT {
PROPOSITION ?current_link {
(id: :current_link_id)
}
}
WITH METADATA {
source: "ContradictionResolution", author: "$system",
created_at: :timestamp,
confidence: :boosted_confidence,
supersedes: :old_link_id,
evolution_note: :temporal_context
}`,
      {
        old_link_id: oldId ?? '',
        current_link_id: currentId ?? '',
        timestamp: TS,
        reason: 'newer statement',
        boosted_confidence: 0.9,
        temporal_context: 'changed in 2026',
      },
    );
    expect(
      await w.ok(
        'FIND(?p.name, ?l.metadata.superseded, ?l.metadata.confidence) WHERE { ?l ({type: "Person", name: "Alice"}, "prefers", ?p) } ORDER BY ?p.name',
      ),
    ).toEqual([
      ['eats meat', null, 0.9],
      ['vegetarian', true, 0.1],
    ]);

    // Phase 12: TTL reclamation of expired, non-protected nodes.
    const candidates = await w.ok<[string, string][]>(
      `FIND(?n.type, ?n.name, ?n.metadata.expires_at, ?n.attributes.consolidation_status) WHERE {
?n {type: :type}
FILTER(IS_NOT_NULL(?n.metadata.expires_at))
FILTER(?n.metadata.expires_at < :now)
FILTER(?n.type != "$ConceptType" && ?n.type != "$PropositionType" && ?n.type != "Domain")
FILTER(?n.name != "$self" && ?n.name != "$system")
} LIMIT 200`,
      { type: 'Event', now: TS },
    );
    expect(candidates.map((c) => c[1])).toEqual(['Event:2025-12-01:old']);
    expect(
      await w.ok(
        `DELETE CONCEPT ?n DETACH
WHERE {
?n {type: :type, name: :name}
FILTER(IS_NOT_NULL(?n.metadata.expires_at))
FILTER(?n.metadata.expires_at < :now)
}`,
        { type: 'Event', name: 'Event:2025-12-01:old', now: TS },
      ),
    ).toEqual({ deleted: 1, propositions: 1 });

    // Phase 13: append to the maintenance log under EXPECT VERSION; a stale version is KIP_3005.
    const [read] = await w.ok<[unknown, number][]>(
      'FIND(?system.attributes.maintenance_log, ?system.metadata._version) WHERE { ?system {type: "Person", name: "$system"} }',
    );
    const [log, version] = read ?? [];
    expect(log).toBeNull();
    const write = (v: number) =>
      w.kip(
        `UPSERT {
CONCEPT ?system {
{type: "Person", name: "$system"}
EXPECT VERSION :v
SET ATTRIBUTES {
last_sleep_cycle: :current_timestamp,
maintenance_log: :appended_maintenance_log
}
}
}
WITH METADATA { source: "SleepCycle", author: "$system", created_at: :current_timestamp }`,
        { v, current_timestamp: TS, appended_maintenance_log: [{ timestamp: TS, scope: 'full', items_processed: 7 }] },
      );
    expect(await write(version ?? 0)).toMatchObject({ result: { concepts: [{ status: 'updated' }] } });
    expect(await write(version ?? 0)).toMatchObject({ error: { code: 'KIP_3005' } });
    expect(await w.ok('FIND(?s.attributes.maintenance_log) WHERE { ?s {type: "Person", name: "$system"} }')).toEqual([
      [{ timestamp: TS, scope: 'full', items_processed: 7 }],
    ]);
  });
});
