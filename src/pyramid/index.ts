export { BASE_MODELS, assignWithoutModel, modelSlug } from './models.js';
export { observe, observeWorld, observationFromTransition } from './observe.js';
export { getPyramid, renderPyramid, type Pyramid, type PyramidTier } from './pyramid.js';
export { ensureBaseModels, summarize, type SummarizeOptions, type SummarizeReport } from './summarize.js';
export { STEP, dayNumber, dayStart, groupByWindow, maxTier, selectPyramid, tierSpanDays, windowOf } from './tiers.js';
