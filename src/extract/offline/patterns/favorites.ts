/**
 * Favourites: "My favorite book is Harry Potter", "Harry Potter is my favorite book", "my fave dairy-free treat is
 * this chocolate raspberry tart". A favourite of a kind is a state of the speaker (`favorite_book: Harry Potter`),
 * which a later favourite of the same kind replaces: a favourite that changes is a change of the person. Not a
 * favourite: "one of my favorites" (one of several, no state), a favourite with no kind ("Blue's my fave"), a
 * favourite moment, part or memory (what happened, not what the speaker likes), and a past one ("was my favorite").
 */
import type { Findings, StateChangeFinding } from '../findings.js';
import { clip, cutClause } from '../names.js';
import { isHedged, isQuestion, type PatternContext } from './context.js';

const FAV = String.raw`(?:new\s+|all-time\s+|absolute\s+|current\s+|very\s+)?(?:favou?rite|fave)`;
/** The kind: one to three lower-case words ("book", "dairy-free treat", "style of dance"). */
const KIND = String.raw`([a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,2}?)`;
const ADVERBS = String.raw`(?:\s+(?:definitely|probably|still|now|totally|easily|really))*`;
const MY_FAVORITE_IS = new RegExp(
  String.raw`\b[Mm]y\s+${FAV}\s+${KIND}\s+(?:is|are|has to be|would (?:have to )?be)${ADVERBS}\s+(.+)$`,
);
const IS_MY_FAVORITE = new RegExp(
  String.raw`(?:^|[,;:]\s+|\b(?:and|but|so|because|since)\s+)([^,;:]+?)\s*(?:\s(?:is|are)|['’]s)${ADVERBS}\s+my\s+${FAV}\s+${KIND}(?=\s*(?:[.!,;]|$|\s+(?:ever|of all time|by far|now|right now|these days|too)\b))`,
);
/** Kinds that name what happened or a stand-in, not a kind of thing one likes. */
const NOT_A_KIND =
  /^(?:one|ones|thing|things|part|parts|bit|memory|memories|moment|moments|time|times|day|days|way|ways|aspect|thing about|part about|activity|activities|place to be)\b/;
/** A value or subject that only points elsewhere: "it", "this one", "that". */
const POINTER = /^(?:it|this|that|these|those|they|them|he|she|one|this one|that one|mine|yours|which|what|who)$/i;
const END = /\s*(?:[;:!?()]|\.(?:\s|$)|,|\s+-\s+|\s+—\s+|\s+(?:because|since|but|and I|which|as it|as they)\s+)/i;
/** A leading determiner, dropped unless a title starts with it ("The Name of the Wind"). */
const LEADING = /^(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Mm]y|[Oo]ur)\s+(?!\p{Lu})/u;
const MAX_WORDS = 8;

export function findFavorites(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s) || isHedged(s)) return {};
  const mine = MY_FAVORITE_IS.exec(s.text);
  const theirs = mine ? null : IS_MY_FAVORITE.exec(s.text);
  const kind = (mine?.[1] ?? theirs?.[2] ?? '').trim();
  const said = mine ? cutClause(mine[2] ?? '', END) : (theirs?.[1] ?? '');
  const value = said.replace(LEADING, '').trim();
  if (!kind || NOT_A_KIND.test(kind) || !value || POINTER.test(value) || value.split(/\s+/).length > MAX_WORDS)
    return {};
  const name = clip(value, 80);
  const favorite: StateChangeFinding = {
    entityName: s.self,
    whatChanged: `Favorite ${kind}: ${name}`,
    attribute: `favorite_${kind.toLowerCase().replace(/\s+/g, '_')}`,
    newStateAspect: name,
    isContradiction: false,
    confidence: 0.7,
    episodeId: s.episodeId,
  };
  return { stateChanges: [favorite] };
}
