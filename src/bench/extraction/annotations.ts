import { isObject } from '../../import/common.js';
import { parseLocomoDate } from '../../import/times.js';

/** One LoCoMo observation: a fact about a speaker, with the dialog ids it rests on. */
export interface AnnotatedFact {
  speaker: string;
  /** Session number (1-based), from its key. */
  session: number;
  text: string;
  evidence: string[];
}

/** One LoCoMo event_summary event: something that happened to a speaker around a session's date. */
export interface AnnotatedEvent {
  speaker: string;
  session: number;
  text: string;
  /** The session's date (epoch ms, UTC), null when the date cannot be read. */
  date: number | null;
  /**
   * The session before's date (null: the first session, or unreadable). LoCoMo's sessions talk over what happened
   * since the last one, so an event told "last Tuesday" is dated between the two.
   */
  since: number | null;
}

export interface Annotations {
  sampleId: string;
  speakers: string[];
  facts: AnnotatedFact[];
  events: AnnotatedEvent[];
  /** Entries that could not be read (reported, never fatal). */
  skipped: number;
}

const sessionOf = (key: string): number | null => {
  const m = /session_(\d+)/.exec(key);
  return m ? Number(m[1]) : null;
};

/** Evidence ids of an observation: a string or a list; ids joined in one string are split ("D8:6; D9:17"). */
function evidenceIds(value: unknown): string[] {
  const raw = Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];
  return raw
    .flatMap((s) => s.split(/[;,\s]+/))
    .map((s) => s.trim())
    .filter((s) => /^D\d+:\d+$/.test(s));
}

/** The observations and events of one LoCoMo sample, read defensively (the file has malformed entries). */
export function locomoAnnotations(sample: unknown): Annotations {
  const out: Annotations = { sampleId: '?', speakers: [], facts: [], events: [], skipped: 0 };
  if (!isObject(sample)) return out;
  if (typeof sample.sample_id === 'string') out.sampleId = sample.sample_id;
  const conv = isObject(sample.conversation) ? sample.conversation : {};
  for (const k of ['speaker_a', 'speaker_b']) if (typeof conv[k] === 'string') out.speakers.push(conv[k]);
  const observations = isObject(sample.observation) ? sample.observation : {};
  for (const [key, perSpeaker] of Object.entries(observations)) {
    const session = sessionOf(key);
    if (session === null || !isObject(perSpeaker)) continue;
    for (const [speaker, list] of Object.entries(perSpeaker)) {
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        const text = Array.isArray(entry) && typeof entry[0] === 'string' ? entry[0] : null;
        const evidence = Array.isArray(entry) ? evidenceIds(entry[1]) : [];
        if (text === null || evidence.length === 0) {
          out.skipped += 1;
          continue;
        }
        out.facts.push({ speaker, session, text, evidence });
      }
    }
  }
  const summaries = isObject(sample.event_summary) ? sample.event_summary : {};
  // The session's own time when the conversation has it, else the summary's day ("8 May, 2023") at noon.
  const dateOf = (session: number): number | null => {
    const own = conv[`session_${session}_date_time`];
    const summary = summaries[`events_session_${session}`];
    const day = isObject(summary) && typeof summary.date === 'string' ? summary.date : null;
    return (
      (typeof own === 'string' ? parseLocomoDate(own, 'UTC') : null) ??
      (day !== null ? parseLocomoDate(`12:00 pm on ${day}`, 'UTC') : null)
    );
  };
  for (const [key, value] of Object.entries(summaries)) {
    const session = sessionOf(key);
    if (session === null || !isObject(value)) continue;
    const date = dateOf(session);
    const since = session > 1 ? dateOf(session - 1) : null;
    for (const [speaker, list] of Object.entries(value)) {
      if (speaker === 'date' || !Array.isArray(list)) continue;
      for (const text of list) {
        if (typeof text === 'string' && text.trim() !== '') out.events.push({ speaker, session, text, date, since });
        else out.skipped += 1;
      }
    }
  }
  return out;
}
