/**
 * Word lists shared by the offline extractor's pattern families. Constant tables only.
 */

export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** Capitalized words that are never names of people, organizations, places or projects on their own. */
export const NOT_A_NAME: ReadonlySet<string> = new Set([
  ...MONTHS,
  ...WEEKDAYS,
  ...'jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun today tomorrow yesterday tonight i im me my we us our you your he she it they them this that these those the a an and or but so if ok okay yes no yeah hey hi hello thanks thank please sorry wow cool great nice good awesome update edit note question answer also anyway btw lol omg ps ai api app ui ux faq pdf csv json html css url sql id tv ta tas cs ceo cto cfo coo vp pm am usa us eu uk god christmas thanksgiving easter halloween spring summer fall autumn winter week weekend decision big new first next last final one two every some any all what which how why when where who is are can could should would will do does did here there then now just maybe sure right well zara levi levis chanel dior gucci prada mercedes siri alexa cortana'.split(
    ' ',
  ),
]);

/** Relation nouns in "my brother Arjun", with the relationship type they imply between the user and the person. */
export const RELATION_NOUNS: Record<string, 'COLLABORATES_WITH' | 'KNOWS'> = {
  'co-founder': 'COLLABORATES_WITH',
  cofounder: 'COLLABORATES_WITH',
  'co founder': 'COLLABORATES_WITH',
  colleague: 'COLLABORATES_WITH',
  coworker: 'COLLABORATES_WITH',
  'co-worker': 'COLLABORATES_WITH',
  teammate: 'COLLABORATES_WITH',
  collaborator: 'COLLABORATES_WITH',
  partner: 'KNOWS',
  'business partner': 'COLLABORATES_WITH',
  boss: 'COLLABORATES_WITH',
  manager: 'COLLABORATES_WITH',
  'team lead': 'COLLABORATES_WITH',
  intern: 'COLLABORATES_WITH',
  employee: 'COLLABORATES_WITH',
  client: 'COLLABORATES_WITH',
  investor: 'COLLABORATES_WITH',
  advisor: 'KNOWS',
  adviser: 'KNOWS',
  mentor: 'KNOWS',
  professor: 'KNOWS',
  teacher: 'KNOWS',
  tutor: 'KNOWS',
  coach: 'KNOWS',
  therapist: 'KNOWS',
  doctor: 'KNOWS',
  brother: 'KNOWS',
  sister: 'KNOWS',
  'little brother': 'KNOWS',
  'little sister': 'KNOWS',
  'younger brother': 'KNOWS',
  'younger sister': 'KNOWS',
  'older brother': 'KNOWS',
  'older sister': 'KNOWS',
  'big brother': 'KNOWS',
  'big sister': 'KNOWS',
  mom: 'KNOWS',
  mother: 'KNOWS',
  dad: 'KNOWS',
  father: 'KNOWS',
  son: 'KNOWS',
  daughter: 'KNOWS',
  cousin: 'KNOWS',
  uncle: 'KNOWS',
  aunt: 'KNOWS',
  grandma: 'KNOWS',
  grandmother: 'KNOWS',
  grandpa: 'KNOWS',
  grandfather: 'KNOWS',
  wife: 'KNOWS',
  husband: 'KNOWS',
  girlfriend: 'KNOWS',
  boyfriend: 'KNOWS',
  fiancee: 'KNOWS',
  fiance: 'KNOWS',
  friend: 'KNOWS',
  'best friend': 'KNOWS',
  'close friend': 'KNOWS',
  roommate: 'KNOWS',
  neighbor: 'KNOWS',
  neighbour: 'KNOWS',
  classmate: 'KNOWS',
};

const FAMILY = /brother|sister|mom|dad|mother|father|son|daughter|cousin|aunt|uncle|grand|wife|husband|spouse|fianc/;
const MENTOR = /mentor|advisor|adviser|professor|teacher|coach|tutor|therapist|doctor/;

/**
 * The edge a relation word implies between a person and the user: family → FAMILY_OF, mentors → MENTORS (person as
 * source), colleagues → COLLABORATES_WITH, others → KNOWS.
 */
export function relationEdge(word: string): 'FAMILY_OF' | 'MENTORS' | 'COLLABORATES_WITH' | 'KNOWS' {
  const w = word.toLowerCase();
  if (FAMILY.test(w)) return 'FAMILY_OF';
  if (MENTOR.test(w)) return 'MENTORS';
  return RELATION_NOUNS[w] ?? 'KNOWS';
}

/** Normalized spelling of a relation or role word ("cofounder" → "co-founder"). */
export function normalizeRelation(word: string): string {
  const w = word.toLowerCase().replace(/\s+/g, ' ');
  return w === 'cofounder' || w === 'co founder' ? 'co-founder' : w;
}

/** Titles that precede a person's name. Value: the title as stored in the person's state. */
export const TITLES: Record<string, string> = {
  professor: 'professor',
  prof: 'professor',
  'prof.': 'professor',
  dr: 'doctor',
  'dr.': 'doctor',
  doctor: 'doctor',
  mr: 'mr',
  'mr.': 'mr',
  mrs: 'mrs',
  'mrs.': 'mrs',
  ms: 'ms',
  'ms.': 'ms',
  coach: 'coach',
  dean: 'dean',
};

/** Roles a person can hold on a project or in an organization ("Maya is now our CEO"). */
export const ROLE_WORDS = [
  'co-founder',
  'cofounder',
  'founder',
  'ceo',
  'cto',
  'cfo',
  'coo',
  'cpo',
  'president',
  'vice president',
  'vp of engineering',
  'head of product',
  'head of engineering',
  'head of design',
  'lead engineer',
  'lead designer',
  'tech lead',
  'team lead',
  'engineering manager',
  'product manager',
  'project manager',
  'manager',
  'designer',
  'engineer',
  'developer',
  'researcher',
  'research intern',
  'intern',
  'advisor',
  'adviser',
  'mentor',
  'investor',
  'board member',
  'contractor',
  'consultant',
  'partner',
  'lead',
] as const;

/** Project stages, in the vocabulary the world model uses. Keys are words in the text. */
export const STAGE_WORDS: Record<string, string> = {
  idea: 'idea',
  concept: 'idea',
  prototype: 'prototype',
  mvp: 'prototype',
  demo: 'prototype',
  alpha: 'alpha',
  beta: 'beta',
  'private beta': 'beta',
  'public beta': 'beta',
  launched: 'launched',
  live: 'launched',
  production: 'launched',
  paused: 'paused',
  'on hold': 'paused',
  abandoned: 'abandoned',
  dead: 'abandoned',
  'shut down': 'abandoned',
  archived: 'abandoned',
  pivoted: 'pivoted',
  profitable: 'profitable',
  funded: 'funded',
  acquired: 'acquired',
};

/** Nouns a project is described with ("Tidepool, an app that …"). */
export const PROJECT_NOUNS = [
  'app',
  'application',
  'tool',
  'platform',
  'startup',
  'start-up',
  'company',
  'product',
  'service',
  'website',
  'site',
  'web app',
  'mobile app',
  'game',
  'library',
  'framework',
  'bot',
  'chatbot',
  'extension',
  'plugin',
  'project',
  'side project',
  'saas',
  'marketplace',
  'newsletter',
  'podcast',
  'blog',
  'nonprofit',
  'non-profit',
  'program',
  'course',
  'club',
  'initiative',
] as const;

/** Words that make a sentence about technology (used to accept ambiguous tool names such as "Go" or "Notion"). */
export const TECH_CONTEXT =
  /\b(?:code|coding|coded|program(?:ming|s)?|language|librar(?:y|ies)|lib|framework|package|module|sdk|api|database|db|backend|back-end|frontend|front-end|server|serverless|deploy(?:ed|ing|ment)?|stack|install(?:ed|ing)?|compile[rd]?|runtime|script|repo|repository|github|version|upgrade|migrat(?:e|ed|ion|ing)|switch(?:ed|ing)?|using|use|used|written|write|wrote|build|built|app|apps|notes|vault|workspace|plugin|query|queries|schema|model|models|prompt|llm|api key|tool|tools|subscription|account|docs)s?\b/i;
