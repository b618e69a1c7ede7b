/**
 * The chat's routing (the flowcharts' chat: a question is answered from memory, anything else is a statement to
 * remember). Pure rules, no model: a question mark at the end, or a question word or auxiliary verb first
 * ("what", "when", "did", "is", "can", …), or an imperative asking for recall ("tell me", "show me", "remind me",
 * "list", "summarize", "describe", "explain").
 */
export type ChatRoute = 'question' | 'statement';

/** Greetings, thanks and acknowledgements: neither a question nor something worth remembering. */
const SMALL_TALK =
  /^(?:hi|hello|hey|hiya|yo|thanks|thank you|thx|ty|ok|okay|k|cool|great|nice|bye|goodbye|see you|good (?:morning|afternoon|evening|night))(?:\s+(?:there|again|pie|so much|a lot))?[\s!.,:)]*$/i;

/** True for a message that is only a greeting or thanks (the chat answers it and stores nothing). */
export function isSmallTalk(text: string): boolean {
  return SMALL_TALK.test(text.trim());
}

const QUESTION_START =
  /^(who|whom|whose|what|when|where|which|why|how|is|are|was|were|am|do|does|did|can|could|should|would|will|have|has|had|may|might|shall|tell me|show me|remind me|list|summari[sz]e|describe|explain|compare|give me)\b/i;

export function routeMessage(text: string): ChatRoute {
  const t = text.trim();
  if (t.endsWith('?')) return 'question';
  return QUESTION_START.test(t) ? 'question' : 'statement';
}

/** The answer to a greeting or a thanks (pie chat and the web UI's chat): nothing is stored. */
export const SMALL_TALK_REPLY =
  'Hello! Ask me something about your history, or tell me something to remember. (Nothing was stored.)';
