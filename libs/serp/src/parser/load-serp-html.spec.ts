import { load } from 'cheerio';
import { loadSerpHtml } from './load-serp-html';
import { extractOrganicResults } from './organic-results';
import { readSerpFixture } from './testing/serp-fixtures';

/**
 * The parser reads pages with htmlparser2 for speed. cheerio's default, parse5, follows the HTML
 * standard's tree building to the letter; on one page of each layout family both must give the same
 * organic results (parse5 is slow, so not on every page).
 */
describe('loadSerpHtml (htmlparser2) against the standard HTML parser (parse5)', () => {
  it.each([
    'serphacker__serposcope__201910-caymus-DESKTOP.html', // desktop 2019, 100 results
    'zlurad__serp-parser__mobile-google.html', // mobile 2023
    'kjellberg__serp_parser__2024-09-06-matkasse.html', // basic HTML 2024
    'fra50__persistent_browser_service__ai_overview.html', // desktop 2025, rendered
  ])('%s gives the same organic results', (file) => {
    const html = readSerpFixture(file);
    const standard = load(html);
    standard('script, style').remove();
    expect(extractOrganicResults(loadSerpHtml(html))).toEqual(extractOrganicResults(standard));
  });
});
