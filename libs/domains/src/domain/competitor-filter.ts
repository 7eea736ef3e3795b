/**
 * The competitors `competitors-filtered` keeps: with at most 6 candidates all of them; otherwise the
 * 3 smallest traffic figures above the main domain's and the 3 largest below it, and when one side
 * has fewer than 3 the other gives more, up to 6 (clarifications). A competitor with exactly the main
 * domain's traffic counts as below. Without the main domain's figure nothing can be placed above or
 * below it, so the 6 largest are kept. Ties are broken by domain name, so the answer is stable.
 */
export interface CompetitorTraffic {
  domain: string;
  totalVisits: number;
}

export const KEPT_COMPETITORS = 6;
const PER_SIDE = KEPT_COMPETITORS / 2;

const byVisitsThenName = (a: CompetitorTraffic, b: CompetitorTraffic) => a.totalVisits - b.totalVisits || a.domain.localeCompare(b.domain);

/** The kept competitors, largest traffic first. */
export function filterCompetitors(competitors: readonly CompetitorTraffic[], mainVisits: number | null): CompetitorTraffic[] {
  const largestFirst = (list: CompetitorTraffic[]) => [...list].sort((a, b) => byVisitsThenName(b, a));
  if (competitors.length <= KEPT_COMPETITORS) return largestFirst([...competitors]);
  if (mainVisits === null) return largestFirst([...competitors]).slice(0, KEPT_COMPETITORS);

  // Nearest to the main domain first on each side.
  const above = competitors.filter((c) => c.totalVisits > mainVisits).sort(byVisitsThenName);
  const below = competitors.filter((c) => c.totalVisits <= mainVisits).sort((a, b) => byVisitsThenName(b, a));
  const takeAbove = Math.min(above.length, Math.max(PER_SIDE, KEPT_COMPETITORS - below.length));
  const takeBelow = Math.min(below.length, KEPT_COMPETITORS - takeAbove);
  return largestFirst([...above.slice(0, takeAbove), ...below.slice(0, takeBelow)]);
}
