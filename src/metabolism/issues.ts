/** Issues a phase lists at most; the rest are counted in one last line (the phase's details keep the totals). */
export const MAX_ISSUES = 20;

export function capIssues(issues: readonly string[], max = MAX_ISSUES): string[] {
  if (issues.length <= max) return [...issues];
  return [...issues.slice(0, max), `… and ${issues.length - max} more`];
}
