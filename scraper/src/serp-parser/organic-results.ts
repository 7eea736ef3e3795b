import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { domainOfUrl } from '../../../libs/domain/src/shared/domain-name';
import { ancestorsOf, hasAncestorIn } from './dom-tree';
import { resultUrlFromHref } from './google-links';
import { collapseWhitespace, textOf } from './html-text';
import { NON_ORGANIC_CONTAINER_SELECTORS } from './non-organic-blocks';
import type { OrganicResult } from './serp-page';
import { countResultLinksPerAncestor, snippetOfResult } from './result-snippet';

/** A link that looks like a result's title link, before it is judged organic or not. */
interface TitleLink {
  anchor: Element;
  url: string;
  title: string;
}

/**
 * The organic results of a Google result page, in page order, numbered 1..n.
 *
 * One rule holds on every layout in the fixtures (desktop 2019–2025, mobile, basic HTML): a web
 * result is a link to another site whose title is a heading — `a > h3` on desktop and basic HTML,
 * `h3 > a` on some older desktop pages, `a > div[role=heading]` on mobile since 2022. Everything
 * else Google puts in the results column (ads, People also ask, carousels, the knowledge panel, the
 * AI Overview) either has no such link or sits in a container listed in non-organic-blocks.ts.
 * Sitelinks have no heading of their own, so they never become results.
 */
export function extractOrganicResults($: CheerioAPI): OrganicResult[] {
  const area = mainResultsArea($);
  const nonOrganic = new Set($(NON_ORGANIC_CONTAINER_SELECTORS.join(',')).toArray());

  const accepted: TitleLink[] = [];
  const seenUrls = new Set<string>();
  for (const anchor of area.find('a[href]').toArray()) {
    const titleLink = asTitleLink($, anchor);
    if (titleLink === null) continue;
    if (nonOrganic.has(anchor) || hasAncestorIn(anchor, nonOrganic)) continue;
    // The same page linked twice is one result: a featured snippet that Google also lists
    // below, or a 2025 video result whose thumbnail and title are separate links.
    if (seenUrls.has(titleLink.url)) continue;
    seenUrls.add(titleLink.url);
    accepted.push(titleLink);
  }

  const resultLinkCounts = countResultLinksPerAncestor(accepted.map((link) => link.anchor));
  return accepted.map((link, index) => ({
    position: index + 1,
    url: link.url,
    title: link.title,
    domain: domainOfUrl(link.url) ?? '',
    snippet: snippetOfResult($, link.anchor, resultLinkCounts),
  }));
}

/**
 * Where the results are: `#rcnt` on desktop (it also holds the full-width featured snippet, which
 * sits outside `#center_col` since 2022), `#cnt` on mobile, `#main` on basic-HTML pages.
 */
function mainResultsArea($: CheerioAPI) {
  for (const selector of ['#rcnt', '#cnt', '#main']) {
    const area = $(selector).first();
    if (area.length > 0) return area;
  }
  return $('body');
}

function asTitleLink($: CheerioAPI, anchor: Element): TitleLink | null {
  const title = titleOf($, anchor);
  if (title === '') return null;
  const url = resultUrlFromHref(anchor.attribs['href']);
  if (url === null || domainOfUrl(url) === null) return null;
  return { anchor, url, title };
}

/** The heading that titles a result link, or '' when the link has none. */
function titleOf($: CheerioAPI, anchor: Element): string {
  const link = $(anchor);
  // Desktop 2019–2025 and basic HTML: `<a href><h3>Title</h3>…</a>`.
  const h3 = link.find('h3').first();
  if (h3.length > 0) return textOf(h3);
  // Older desktop pages: `<h3 class="r"><a href>Title</a></h3>`.
  for (const ancestor of ancestorsOf(anchor)) {
    if (ancestor.tagName === 'h3') return collapseWhitespace($(ancestor).text());
    if (ancestor.tagName !== 'span' && ancestor.tagName !== 'div') break;
  }
  // Mobile 2022–2025: `<a href><div role="heading" aria-level="3">Title</div></a>`.
  const heading = link.find('[role="heading"]').first();
  if (heading.length > 0) return textOf(heading);
  return '';
}
