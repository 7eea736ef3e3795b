/** The SERP parser: reads a saved Google result page into a {@link SerpPage}. */
export { parseSerpPage } from './parse-serp-page';
export type { AiOverviewSource, BlockReason, OrganicResult, PageSource, SerpPage } from './serp-page';
