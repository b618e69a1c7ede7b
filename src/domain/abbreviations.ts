/**
 * Abbreviations written with a point that ends no sentence or clause ("Dr. Johnson", "St. Mary's Church"), shared by
 * the sentence splitter, the event and time-clause rules and the question splitter. Pure.
 */

/** Titles and short words before a name, as a regular-expression alternation (no flags implied). */
export const NAME_ABBREVIATIONS = 'Dr|Prof|Mr|Mrs|Ms|St|Mt|Sr|Jr|vs|etc';

/** A lookbehind: the point that follows is not one of NAME_ABBREVIATIONS' ("Dr." before "Johnson"). */
export const NOT_AFTER_NAME_ABBREVIATION = String.raw`(?<!\b(?:${NAME_ABBREVIATIONS}))`;
