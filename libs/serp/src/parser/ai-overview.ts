import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { domainOfUrl } from '@rank/domain/domain-name';
import { resultUrlFromHref, withoutTextFragment } from './google-links';
import { collapseWhitespace } from './html-text';
import type { AiOverviewSource } from './serp-page';

/** The AI Overview block above the results, desktop 2024–2025. */
const AI_OVERVIEW_CONTAINER = '#eKIzJc';
/** A citation link of the overview (the source cards and the inline "link" chips), 2025. */
const AI_OVERVIEW_CITATION = 'a.NDNGvf';
/** People-also-ask answers carry small overviews of their own; those are not the AI Overview. */
const PEOPLE_ALSO_ASK = '.related-question-pair, [data-initq]';

/**
 * The sources the page's AI Overview cites, in order of first citation, one per URL (after dropping
 * `#:~:text=` fragments, which only point at a quote in the same page). Empty when the page has no
 * AI Overview.
 */
export function extractAiOverviewSources($: CheerioAPI): AiOverviewSource[] {
  const overview = findAiOverview($);
  if (overview === null) return [];

  let citations = overview.find(AI_OVERVIEW_CITATION).toArray();
  const byFallback = citations.length === 0;
  if (byFallback) {
    // A markup change renamed the citation class: fall back to the overview's labelled links
    // (citations carry the source's title as aria-label; the overview's video thumbnails do not)
    // that do not point at Google's own help ("Learn more about generative AI").
    citations = overview.find('a[href][aria-label]').toArray();
  }

  const sources: AiOverviewSource[] = [];
  const seen = new Set<string>();
  for (const link of citations) {
    const resultUrl = resultUrlFromHref(link.attribs['href']);
    if (resultUrl === null) continue;
    const url = withoutTextFragment(resultUrl);
    const domain = domainOfUrl(url);
    if (domain === null || seen.has(url) || (byFallback && isGooglePage(domain))) continue;
    seen.add(url);
    sources.push({ position: sources.length + 1, url, title: citationTitle($, link) || domain, domain });
  }
  return sources;
}

function findAiOverview($: CheerioAPI): Cheerio<Element> | null {
  const byId = $(AI_OVERVIEW_CONTAINER).first();
  if (byId.length > 0) return byId;
  // Fallback: the block headed "AI Overview" (its heading is an h1/h2 on desktop and mobile).
  const heading = $('h1, h2, [role="heading"]')
    .filter((_, element) => /^AI Overview$/i.test(collapseWhitespace($(element).text())))
    .filter((_, element) => $(element).closest(PEOPLE_ALSO_ASK).length === 0)
    .first();
  if (heading.length === 0) return null;
  const block = heading.parent();
  return block.length > 0 ? block : null;
}

/** Source cards name the page in `aria-label`; inline chips may only have text. */
function citationTitle($: CheerioAPI, link: Element): string {
  return collapseWhitespace(link.attribs['aria-label'] ?? '') || collapseWhitespace($(link).text());
}

function isGooglePage(domain: string): boolean {
  return /(^|\.)google\.[a-z.]+$/.test(domain);
}
