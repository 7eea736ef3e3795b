import type { Cheerio, CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { domainOfUrl } from '@rank/domain/domain-name';
import { ancestorsOf, hasAncestorIn, isElement } from './dom-tree';
import { resultUrlFromHref } from './google-links';
import { collapseWhitespace } from './html-text';
import { NON_ORGANIC_CONTAINER_SELECTORS } from './non-organic-blocks';
import type { OrganicResult } from './serp-page';
import { countResultLinksPerAncestor, snippetOfResult } from './result-snippet';

/** A link that looks like a result's title link, before it is judged organic or not. */
interface TitleLink {
  anchor: Element;
  url: string;
  domain: string;
  title: string;
  /** `h3` on desktop and basic-HTML pages, `heading` (an element with role=heading) on mobile. */
  titleElement: 'h3' | 'heading';
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
  const nonOrganic = new Set($(NON_ORGANIC_CONTAINER_SELECTORS.join(',')).toArray().filter(isElement));

  const candidates = findTitleLinks($, area).filter((link) => !nonOrganic.has(link.anchor) && !hasAncestorIn(link.anchor, nonOrganic));

  const titleStyle = pageTitleStyle(candidates, area.is('#rcnt'));
  const accepted: TitleLink[] = [];
  const seenUrls = new Set<string>();
  for (const link of candidates) {
    if (link.titleElement !== titleStyle) continue;
    // The same page linked twice is one result: a featured snippet that Google also lists
    // below, or a 2025 video result whose thumbnail and title are separate links.
    if (seenUrls.has(link.url)) continue;
    seenUrls.add(link.url);
    accepted.push(link);
  }

  const resultLinkCounts = countResultLinksPerAncestor(accepted.map((link) => link.anchor));
  return accepted.map((link, index) => ({
    position: index + 1,
    url: link.url,
    title: link.title,
    domain: link.domain,
    snippet: snippetOfResult($, link.anchor, resultLinkCounts),
  }));
}

/**
 * Which kind of title marks this page's web results. Mobile pages (2022–2025) title results with
 * `div[role=heading]`; desktop and basic-HTML pages with `h3`, and use role=heading titles only for
 * features (brand and news carousels, local places, app cards), whose links are then not results.
 * On every saved page one kind is absent from the result links after the non-organic containers are
 * left out. A desktop page (`#rcnt`, whose carousels can outnumber its results) is always read by
 * its h3 titles: one without any has its results in a markup the parser does not know, and reading
 * its carousels instead (a brand carousel, say) would pass them off as the results. Elsewhere the
 * majority decides, so that a few h3 links on a mobile page (some feature a future layout brings)
 * do not hide its results.
 */
function pageTitleStyle(candidates: readonly TitleLink[], desktop: boolean): 'h3' | 'heading' {
  if (desktop) return 'h3';
  const h3Titled = candidates.filter((link) => link.titleElement === 'h3').length;
  return h3Titled >= candidates.length - h3Titled ? 'h3' : 'heading';
}

/**
 * Where the results are: `#rcnt` on desktop (it also holds the full-width featured snippet, which
 * sits outside `#center_col` since 2022), `#cnt` on mobile, `#main` on basic-HTML pages.
 */
function mainResultsArea($: CheerioAPI): Cheerio<Element> {
  const desktop = $('#rcnt');
  if (desktop.length > 0) return desktop.first();
  const mobile = $('#cnt');
  if (mobile.length > 0) return mobile.first();
  const basicHtml = $('#main');
  return basicHtml.length > 0 ? basicHtml.first() : $('body');
}

/**
 * Every link of the area that a heading titles, in page order. Found from the headings up (there
 * are a few hundred of them) rather than from the links down (a few thousand). Headings come in
 * page order, so the links do too (a Map keeps the order in which keys were first set).
 */
function findTitleLinks($: CheerioAPI, area: Cheerio<Element>): TitleLink[] {
  const links = new Map<Element, TitleLink>();
  for (const heading of area.find('h3, [role="heading"]').toArray()) {
    const titleElement = heading.tagName === 'h3' ? 'h3' : 'heading';
    const anchor = enclosingLink(heading) ?? (titleElement === 'h3' ? linkInside(heading) : null);
    if (anchor === null) continue;
    const known = links.get(anchor);
    // A link's first h3 is its title; a role=heading element titles it only when it has no h3.
    if (known !== undefined && (known.titleElement === 'h3' || titleElement === 'heading')) continue;
    const link = asTitleLink(anchor, collapseWhitespace($(heading).text()), titleElement);
    if (link !== null) links.set(anchor, link);
  }
  return [...links.values()];
}

/** Desktop 2019–2025, basic HTML and mobile: the title sits inside the link (`a > h3`). */
function enclosingLink(heading: Element): Element | null {
  for (const ancestor of ancestorsOf(heading)) {
    if (ancestor.tagName === 'a') return ancestor.attribs['href'] === undefined ? null : ancestor;
  }
  return null;
}

/** Older desktop pages: the link sits inside the title (`h3.r > a`). */
function linkInside(heading: Element): Element | null {
  const stack = [...heading.children];
  while (stack.length > 0) {
    const node = stack.shift()!;
    if (!isElement(node)) continue;
    if (node.tagName === 'a' && node.attribs['href'] !== undefined) return node;
    stack.push(...node.children);
  }
  return null;
}

function asTitleLink(anchor: Element, title: string, titleElement: 'h3' | 'heading'): TitleLink | null {
  // App install units (mobile "Google Play" cards) link to an app store page; not web results.
  if (anchor.attribs['data-app'] !== undefined || anchor.attribs['data-packageid'] !== undefined) return null;
  if (title === '') return null;
  const url = resultUrlFromHref(anchor.attribs['href']);
  const domain = url === null ? null : domainOfUrl(url);
  if (url === null || domain === null) return null;
  return { anchor, url, domain, title, titleElement };
}
