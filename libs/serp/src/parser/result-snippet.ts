import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { ancestorsOf, isElement, isSameOrInside } from './dom-tree';
import { collapseWhitespace } from './html-text';

/**
 * The element that holds a snippet, by layout. Tried in order inside the result's card; the first
 * one with text wins.
 */
const SNIPPET_SELECTORS: readonly string[] = [
  '[data-sncf="1"]', // desktop 2022–2025: the description line(s)
  '.VwiC3b', // desktop 2021–2025
  '.IsZvec', // desktop 2020–2021
  '.aCOpRe', // desktop 2020
  '.st', // desktop 2019 and earlier
  '.yDYNvb', // mobile 2022–2023
  '.BNeawe.s3v9rd', // basic HTML 2021–2024 (its title line is `.BNeawe.vvjwJb`)
];

/** Walking further up than this from the title link never reaches a result's own snippet. */
const MAX_CARD_DEPTH = 12;

/** How many of the page's result title links each element holds, for finding each result's card. */
export type ResultLinkCounts = ReadonlyMap<Element, number>;

export function countResultLinksPerAncestor(resultAnchors: readonly Element[]): ResultLinkCounts {
  const counts = new Map<Element, number>();
  for (const anchor of resultAnchors) {
    for (const ancestor of ancestorsOf(anchor)) counts.set(ancestor, (counts.get(ancestor) ?? 0) + 1);
  }
  return counts;
}

/**
 * The snippet (description) of the result titled by `anchor`. The result's card is the largest
 * ancestor of the link that holds no other result's title link, so one result's snippet is never
 * taken from its neighbour. Returns '' when the card has no snippet (some results have none).
 */
export function snippetOfResult($: CheerioAPI, anchor: Element, resultLinkCounts: ResultLinkCounts): string {
  const card = cardOf(anchor, resultLinkCounts);
  for (const selector of SNIPPET_SELECTORS) {
    for (const candidate of $(card).find(selector).toArray()) {
      if (isSameOrInside(candidate, anchor)) continue;
      const text = collapseWhitespace($(candidate).text());
      if (text !== '') return text;
    }
  }
  return longestTextOutside($, card, anchor);
}

function cardOf(anchor: Element, resultLinkCounts: ResultLinkCounts): Element {
  let card: Element = anchor;
  for (let depth = 0; depth < MAX_CARD_DEPTH; depth++) {
    const parent = card.parent;
    if (!isElement(parent) || parent.attribs['id'] === 'rso' || parent.tagName === 'body') break;
    if ((resultLinkCounts.get(parent) ?? 0) > 1) break;
    card = parent;
  }
  return card;
}

/**
 * Fallback for layouts none of the selectors knows: the longest text of a block element of the
 * card that is not part of the title link.
 */
function longestTextOutside($: CheerioAPI, card: Element, anchor: Element): string {
  let best = '';
  for (const block of $(card).find('div, span').toArray()) {
    if (isSameOrInside(block, anchor) || isSameOrInside(anchor, block)) continue;
    const text = collapseWhitespace($(block).text());
    if (text.length > best.length) best = text;
  }
  return best;
}
