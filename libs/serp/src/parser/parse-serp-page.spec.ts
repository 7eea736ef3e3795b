import { load } from 'cheerio';
import { domainOfUrl } from '@rank/domain/domain-name';
import { parseSerpPage } from './parse-serp-page';
import type { OrganicResult, SerpPage } from './serp-page';
import { listSerpFixtures, readExpectedUrls, readSerpFixture } from './testing/serp-fixtures';

/**
 * Every saved Google page in scraper/test-fixtures/serp/ against what its README table says (and,
 * where the parser's count differs from the source repository's, what reading the page shows).
 */

type ResultsPage = Extract<SerpPage, { kind: 'results' }>;

const parsed = new Map<string, SerpPage>();
function parseFixture(fileName: string): SerpPage {
  let page = parsed.get(fileName);
  if (page === undefined) {
    page = parseSerpPage(readSerpFixture(fileName));
    parsed.set(fileName, page);
  }
  return page;
}

function resultsOf(fileName: string): ResultsPage {
  const page = parseFixture(fileName);
  if (page.kind !== 'results') throw new Error(`${fileName}: expected a results page, got ${JSON.stringify(page)}`);
  return page;
}

const urls = (results: readonly OrganicResult[]) => results.map((result) => result.url);
const titles = (results: readonly OrganicResult[]) => results.map((result) => result.title);

/** The verdict of every page; a new fixture without a line here fails the first test below. */
const EXPECTED_VERDICTS: Record<string, { kind: SerpPage['kind']; organic?: number; aiOverview?: number }> = {
  'aileadbooker__ai-lead-booker__debug_google-enablejs.html': { kind: 'blocked' },
  'fra50__persistent_browser_service__ai_overview.html': { kind: 'results', organic: 9, aiOverview: 7 },
  'fra50__persistent_browser_service__billie.html': { kind: 'results', organic: 10, aiOverview: 0 },
  'fra50__persistent_browser_service__google_serp-captcha.html': { kind: 'blocked' },
  // Hand-made (see the README there): Google's cookie-consent page as served at consent.google.com/ml.
  'handmade__google-consent.html': { kind: 'consent' },
  'karust__openserp__search_captcha_new.html': { kind: 'blocked' },
  'karust__openserp__search_no_results.html': { kind: 'no-results' },
  // README: 100. The page has 99 result blocks linking to other sites; see the fixtures README.
  'kjellberg__serp_parser__2024-09-06-matkasse.html': { kind: 'results', organic: 99, aiOverview: 0 },
  'kjellberg__serp_parser__full_html_response.html': { kind: 'results', organic: 7, aiOverview: 0 },
  'serpapi__code-challenge__best-running-shoes-2023-09-07.html': { kind: 'results', organic: 9, aiOverview: 0 },
  'serpapi__code-challenge__coffee.html': { kind: 'results', organic: 10, aiOverview: 0 },
  // A 100-result page: 97 `div.g` blocks with a result title (two more hold no result).
  'serphacker__serposcope__201910-caymus-DESKTOP.html': { kind: 'results', organic: 97, aiOverview: 0 },
  'serphacker__serposcope__202111-image_lion-FR-DESKTOP.html': { kind: 'results', organic: 9, aiOverview: 0 },
  'serphacker__serposcope__202111-image_lion-FR-SMARTPHONE.html': { kind: 'results', organic: 9, aiOverview: 0 },
  // README: "about 98". Exactly 95 web result cards; the rest are a local pack and 3 recipe cards.
  'zlurad__serp-parser__desktop-coffee.html': { kind: 'results', organic: 95, aiOverview: 0 },
  'zlurad__serp-parser__desktop-dell.html': { kind: 'results', organic: 10, aiOverview: 0 },
  'zlurad__serp-parser__desktop-domain.html': { kind: 'results', organic: 8, aiOverview: 0 },
  'zlurad__serp-parser__desktop-featured-snippet.html': { kind: 'results', organic: 10, aiOverview: 0 },
  'zlurad__serp-parser__desktop-google-100.html': { kind: 'results', organic: 99, aiOverview: 0 },
  'zlurad__serp-parser__desktop-google.html': { kind: 'results', organic: 9, aiOverview: 0 },
  'zlurad__serp-parser__desktop-no-results.html': { kind: 'no-results' },
  'zlurad__serp-parser__desktop-recaptcha.html': { kind: 'blocked' },
  // The same query as desktop-coffee: the same 95 web results, less its 4-card recipe carousel.
  'zlurad__serp-parser__mobile-coffee.html': { kind: 'results', organic: 95, aiOverview: 0 },
  'zlurad__serp-parser__mobile-dell.html': { kind: 'results', organic: 9, aiOverview: 0 },
  'zlurad__serp-parser__mobile-google.html': { kind: 'results', organic: 3, aiOverview: 0 },
  'zlurad__serp-parser__nojs-coffee-nojs.html': { kind: 'results', organic: 10, aiOverview: 0 },
  'zlurad__serp-parser__nojs-google-nojs.html': { kind: 'results', organic: 10, aiOverview: 0 },
};

describe('parseSerpPage on saved Google pages', () => {
  it('has an expected verdict for every saved page, and a saved page for every verdict', () => {
    expect(listSerpFixtures()).toEqual(Object.keys(EXPECTED_VERDICTS).sort());
  });

  describe.each(Object.entries(EXPECTED_VERDICTS))('%s', (fileName, expected) => {
    it(`is ${expected.kind}${expected.organic === undefined ? '' : ` with ${expected.organic} organic results`}`, () => {
      const page = parseFixture(fileName);
      expect(page.kind).toBe(expected.kind);
      if (page.kind !== 'results') return;
      expect(page.organic).toHaveLength(expected.organic!);
      expect(page.aiOverview).toHaveLength(expected.aiOverview!);
    });

    if (expected.kind === 'results') {
      it('numbers its organic results 1..n and gives each a URL, title and domain, with no URL twice', () => {
        const { organic } = resultsOf(fileName);
        expect(organic.map((result) => result.position)).toEqual(organic.map((_, index) => index + 1));
        for (const result of organic) {
          expect(result.url).toMatch(/^https?:\/\/[^/]/);
          expect(result.title).not.toBe('');
          expect(result.domain).not.toBe('');
          expect(result.domain).toBe(domainOfUrl(result.url));
        }
        expect(new Set(urls(organic)).size).toBe(organic.length);
      });

      it("unwraps Google's redirects, drops tracking parameters and never lists an ad or a Google search link", () => {
        for (const url of urls(resultsOf(fileName).organic)) {
          expect(url).not.toMatch(/^https?:\/\/(www\.)?google\.[a-z.]+\/(url|search|aclk)\?/);
          expect(url).not.toMatch(/googleadservices\.com|\/aclk\?/);
          expect(url).not.toMatch(/[?&](utm_[a-z]+|gclid|fbclid|srsltid|ved)=/i);
        }
      });

      it('cut short before its last title, is unrecognised, never a shorter list (its pager is cut off too)', () => {
        const html = readSerpFixture(fileName);
        const page = parseSerpPage(html.slice(0, html.lastIndexOf('<h3')));
        expect(page).toEqual({ kind: 'unrecognised', detail: expect.stringMatching(/stops before Google's footer/) });
      });

      it('has a link to the next page (every saved result page is a first page with a pager)', () => {
        expect(resultsOf(fileName).hasNextPage).toBe(true);
      });
    }
  });
});

describe('desktop 2023, query "google" (zlurad desktop-google)', () => {
  const file = 'zlurad__serp-parser__desktop-google.html';

  it('has result #2 https://www.google.com/ and result #4 titled "Google Maps"', () => {
    const { organic } = resultsOf(file);
    expect(organic[1]).toMatchObject({ position: 2, url: 'https://www.google.com/', domain: 'google.com' });
    expect(organic[3]).toMatchObject({ position: 4, title: 'Google Maps' });
  });

  it('leaves out the top stories carousel', () => {
    const found = urls(resultsOf(file).organic);
    expect(found).not.toContain('https://www.theverge.com/2023/4/21/23692794/google-nest-smart-speaker-new-chime-feature');
    expect(found).not.toContain('https://9to5google.com/2023/04/20/google-assistant-home-devices-on/');
    expect(found).not.toContain('https://techcrunch.com/2023/04/20/google-consolidates-ai-research-divisions-into-google-deepmind/');
  });

  it('reads the snippet of a result', () => {
    expect(resultsOf(file).organic[3]!.snippet).toBe('Find local businesses, view maps and get driving directions in Google Maps.');
  });
});

describe('desktop 2023, 100 results on one page (zlurad desktop-google-100)', () => {
  it('has result #3 https://www.google.com/account/about/', () => {
    expect(resultsOf('zlurad__serp-parser__desktop-google-100.html').organic[2]).toMatchObject({
      position: 3,
      url: 'https://www.google.com/account/about/',
      title: 'Google Account',
    });
  });
});

describe('desktop 2023 featured snippet (zlurad desktop-featured-snippet)', () => {
  const file = 'zlurad__serp-parser__desktop-featured-snippet.html';
  const featuredUrl = 'https://developers.google.com/search/docs/appearance/featured-snippets';

  it('counts the featured snippet as result #1, the page it cites', () => {
    expect(resultsOf(file).organic[0]).toMatchObject({
      position: 1,
      url: featuredUrl,
      domain: 'developers.google.com',
      title: 'Featured Snippets and Your Website | Google Search Central',
    });
  });

  it('counts it once', () => {
    expect(urls(resultsOf(file).organic).filter((url) => url === featuredUrl)).toHaveLength(1);
    expect(resultsOf(file).organic[1]!.url).toBe('https://backlinko.com/hub/seo/featured-snippets');
  });
});

describe('desktop 2023, 100 results with a local pack (zlurad desktop-coffee)', () => {
  const file = 'zlurad__serp-parser__desktop-coffee.html';

  it('holds the local pack the README describes (Planet Cafe, 4.7, 45 reviews, 244 Gough St)', () => {
    const html = readSerpFixture(file);
    expect(html).toContain('Planet Cafe');
    expect(html).toMatch(/4\.7<\/span>.{0,400}\(45\)/s);
    expect(html).toContain('244 Gough St');
  });

  it('leaves the local pack and the recipe carousel out of the organic results', () => {
    const { organic } = resultsOf(file);
    expect(titles(organic)).not.toEqual(expect.arrayContaining(['Planet Cafe']));
    expect(titles(organic)).not.toEqual(expect.arrayContaining(['Javalencia']));
    expect(organic.some((result) => result.snippet.includes('244 Gough St'))).toBe(false);
    expect(organic.map((result) => result.domain)).not.toEqual(
      expect.arrayContaining(['bbcgoodfood.com', 'kingarthurbaking.com', 'bulletproof.com']),
    );
  });

  it('keeps an indented second result of the same site as its own position', () => {
    const { organic } = resultsOf(file);
    const starbucks = organic.filter((result) => result.domain === 'starbucks.com');
    expect(starbucks.map((result) => result.url)).toEqual([
      'https://www.starbucks.com/',
      'https://www.starbucks.com/coffee/',
      'https://www.starbucks.com/menu/drinks/cold-coffees',
    ]);
    expect(starbucks[1]!.position).toBe(starbucks[0]!.position + 1);
  });
});

describe('desktop 2023 with top text ads (zlurad desktop-domain)', () => {
  const file = 'zlurad__serp-parser__desktop-domain.html';

  it('does not count the ads', () => {
    const { organic } = resultsOf(file);
    expect(urls(organic)).not.toContain('https://www.godaddy.com/offers/domains/buy-domain');
    expect(titles(organic)).not.toContain('Buy Domain Names - Save On .com Domain Names');
    expect(organic[0]).toMatchObject({ position: 1, url: 'https://www.domain.com/' });
  });

  it('still lists a site that also bought an ad where it ranks organically', () => {
    expect(urls(resultsOf(file).organic)).toEqual(expect.arrayContaining(['https://www.godaddy.com/', 'https://domains.google/']));
  });
});

describe('desktop 2023 with shopping and text ads (zlurad desktop-dell)', () => {
  const file = 'zlurad__serp-parser__desktop-dell.html';

  it('does not count shopping ads', () => {
    const found = urls(resultsOf(file).organic).join('\n');
    expect(found).not.toContain('walmart.com/ip/Dell-XPS-13-3-Touchscreen');
    expect(found).not.toContain('10swanllc.com');
    expect(found).not.toContain('pcliquidations.com');
    expect(found).not.toContain('discountelectronics.com');
  });

  it('counts each result of a "more results from this site" group as its own position', () => {
    expect(urls(resultsOf(file).organic).slice(0, 7)).toEqual([
      'https://www.dell.com/en-us/shop/dell-laptops/xps-13-plus-laptop/spd/xps-13-9320-laptop',
      'https://www.dell.com/en-us/shop/dell-laptops/xps-13-laptop/spd/xps-13-9315-laptop',
      'https://www.dell.com/en-us/shop/dell-laptops/sr/laptops/xps-laptops',
      'https://www.bestbuy.com/site/searchpage.jsp?id=pcat17071&st=dell+xps+13+laptops',
      'https://www.bestbuy.com/site/searchpage.jsp?id=pcat17071&st=dell+xps+13',
      'https://www.bestbuy.com/site/searchpage.jsp?id=pcat17071&st=dell+xps+13+touch',
      'https://www.bestbuy.com/site/searchpage.jsp?id=pcat17071&st=dell+xps13',
    ]);
  });
});

describe('mobile 2023, query "google" (zlurad mobile-google)', () => {
  const file = 'zlurad__serp-parser__mobile-google.html';

  it('reads the div[role=heading] titles: result #3 is "Google Account"', () => {
    expect(resultsOf(file).organic[2]).toMatchObject({
      position: 3,
      title: 'Google Account',
      url: 'https://www.google.com/account/about/',
    });
  });

  it('does not count the 7 sitelinks of result #1 or the Google app card', () => {
    const found = urls(resultsOf(file).organic);
    expect(found).toEqual(['https://google.com/', 'https://www.google.com/', 'https://www.google.com/account/about/']);
  });
});

describe('mobile 2023 (zlurad mobile-coffee, mobile-dell)', () => {
  it('reads div[role=heading] titles on the coffee page and leaves out its recipe carousel', () => {
    const { organic } = resultsOf('zlurad__serp-parser__mobile-coffee.html');
    expect(organic[0]).toMatchObject({ url: 'https://en.m.wikipedia.org/wiki/Coffee', title: 'Coffee' });
    expect(organic[1]!.title).toBe('9 Health Benefits of Coffee, Based on Science - Healthline');
    expect(organic.map((result) => result.domain)).not.toEqual(
      expect.arrayContaining(['kingarthurbaking.com', 'bulletproof.com', 'cafebustelo.com', 'bbcgoodfood.com']),
    );
  });

  it('does not count the mobile text ads of the dell page', () => {
    const { organic } = resultsOf('zlurad__serp-parser__mobile-dell.html');
    expect(urls(organic)).not.toContain('https://www.dell.com/en-us/shop/dell-laptops/sc/laptops');
    expect(titles(organic)).not.toContain('Dell XPS 13 - Shop At Amazon Today');
    expect(organic[0]).toMatchObject({ title: 'XPS 13 Plus Laptop', domain: 'dell.com' });
  });
});

describe('basic HTML 2023 (zlurad nojs-google-nojs, nojs-coffee-nojs)', () => {
  it("unwraps the /url?q= redirects: #8 is https://maps.google.com/ and #2 is titled 'Google Account'", () => {
    const { organic } = resultsOf('zlurad__serp-parser__nojs-google-nojs.html');
    expect(organic[7]).toMatchObject({ position: 8, url: 'https://maps.google.com/', domain: 'maps.google.com' });
    expect(organic[1]).toMatchObject({ position: 2, title: 'Google Account', url: 'https://www.google.com/account/about/' });
    // `/url?q=https://www.google.com/imghp%3Fhl%3DEN&sa=U…`: the target's own query is decoded once.
    expect(urls(organic)).toContain('https://www.google.com/imghp?hl=EN');
  });

  it('leaves out the local pack, whose places link to Google searches', () => {
    const { organic } = resultsOf('zlurad__serp-parser__nojs-coffee-nojs.html');
    expect(titles(organic)).not.toEqual(expect.arrayContaining(["Scooter's Coffee", 'Cafe Lala']));
    expect(organic[0]).toMatchObject({ url: 'https://en.wikipedia.org/wiki/Coffee', title: 'Coffee - Wikipedia' });
  });
});

describe('desktop 2024, query "president usa" (kjellberg full_html_response)', () => {
  const file = 'kjellberg__serp_parser__full_html_response.html';

  it('numbers the 7 results 1..7, the first being the White House presidents page', () => {
    const { organic } = resultsOf(file);
    expect(organic[0]).toMatchObject({
      position: 1,
      url: 'https://www.whitehouse.gov/about-the-white-house/presidents/',
      title: 'Presidents | The White House',
    });
    expect(organic[6]).toMatchObject({ position: 7, url: 'https://en.wikipedia.org/wiki/List_of_presidents_of_the_United_States' });
  });

  it('does not count the 4 sitelinks of the first result', () => {
    const found = urls(resultsOf(file).organic);
    for (const sitelink of [
      'https://www.whitehouse.gov/administration/president-biden/',
      'https://www.whitehouse.gov/about-the-white-house/presidents/george-washington/',
      'https://www.whitehouse.gov/about-the-white-house/presidents/george-w-bush/',
      'https://www.whitehouse.gov/about-the-white-house/presidents/abraham-lincoln/',
    ]) {
      expect(found).not.toContain(sitelink);
    }
  });

  it('leaves out the top stories and the videos', () => {
    const domains = resultsOf(file).organic.map((result) => result.domain);
    expect(domains).not.toEqual(expect.arrayContaining(['usatoday.com', 'northjersey.com', 'youtube.com']));
  });
});

describe('basic HTML 2024, 100 results, Swedish (kjellberg 2024-09-06-matkasse)', () => {
  it('has result #1 "Linas Matkasse…" at https://www.linasmatkasse.se/', () => {
    expect(resultsOf('kjellberg__serp_parser__2024-09-06-matkasse.html').organic[0]).toMatchObject({
      position: 1,
      title: 'Linas Matkasse: Goda, hälsosamma matkassar med 30% rabatt!',
      url: 'https://www.linasmatkasse.se/',
    });
  });

  it('drops the srsltid tracking parameter Google adds to shop links', () => {
    expect(urls(resultsOf('kjellberg__serp_parser__2024-09-06-matkasse.html').organic)).toContain(
      'https://percys.se/collections/all/matkasse',
    );
  });
});

describe.each([
  ['serphacker__serposcope__202111-image_lion-FR-DESKTOP.html', 'desktop 2021, French'],
  ['serphacker__serposcope__202111-image_lion-FR-SMARTPHONE.html', 'mobile 2021, French'],
  ['serphacker__serposcope__201910-caymus-DESKTOP.html', 'desktop 2019, 100 results'],
])('%s (%s)', (file) => {
  it('lists the organic URLs of its .expected-urls.txt, position by position', () => {
    const expected = readExpectedUrls(file);
    expect(urls(resultsOf(file).organic.slice(0, expected.length))).toEqual(expected);
  });
});

describe('desktop 2023 with sponsored products and a video carousel (serpapi best-running-shoes)', () => {
  const file = 'serpapi__code-challenge__best-running-shoes-2023-09-07.html';

  it('starts with runnersworld.com, fleetfeet.com, nymag.com', () => {
    expect(
      resultsOf(file)
        .organic.slice(0, 4)
        .map((result) => result.domain),
    ).toEqual(['runnersworld.com', 'runnersworld.com', 'fleetfeet.com', 'nymag.com']);
  });

  it('leaves out the sponsored products, the video carousel and the "Explore brands" cards', () => {
    const found = urls(resultsOf(file).organic).join('\n');
    expect(found).not.toContain('nike.com');
    expect(found).not.toContain('brooksrunning.com');
    expect(found).not.toContain('allbirds.com');
    expect(found).not.toContain('youtube.com');
  });
});

describe('desktop 2023 with a local pack (serpapi coffee)', () => {
  it('leaves out the 3 places of the local pack', () => {
    const { organic } = resultsOf('serpapi__code-challenge__coffee.html');
    expect(titles(organic)).not.toEqual(expect.arrayContaining(['Coffee Club', 'Coffee Room', 'Coffee Ok']));
    expect(organic[0]).toMatchObject({ url: 'https://en.wikipedia.org/wiki/Coffee', title: 'Coffee' });
  });
});

describe('desktop 2025 with an AI Overview, rendered by a headless browser (fra50 ai_overview)', () => {
  const file = 'fra50__persistent_browser_service__ai_overview.html';

  it('lists the 7 distinct URLs of the 10 citation links, in order of first citation, without #:~:text= fragments', () => {
    const { aiOverview } = resultsOf(file);
    expect(aiOverview.map((source) => source.url)).toEqual([
      'https://www.loveandlemons.com/how-to-make-hard-boiled-eggs/',
      'https://www.incredibleegg.org/recipes/cooking-school/how-to-hard-boil-eggs/',
      'https://www.deliciousmeetshealthy.com/how-to-make-perfect-hard-boiled-eggs/',
      'https://www.budgetbytes.com/how-to-make-hard-boiled-eggs/',
      'https://www.bbcgoodfood.com/howto/guide/how-make-hard-boiled-eggs',
      'https://www.yellowblissroad.com/hard-boiled-eggs-perfect-eggs-every-time/',
      'https://www.recipetineats.com/how-to-boil-eggs/',
    ]);
    expect(aiOverview.map((source) => source.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(aiOverview[0]).toMatchObject({ title: 'How to Make Hard Boiled Eggs Recipe - Love and Lemons', domain: 'loveandlemons.com' });
    expect(aiOverview[4]!.domain).toBe('bbcgoodfood.com');
  });

  it('reads them from the 10 citation links `#eKIzJc a.NDNGvf` the README names', () => {
    const citations = load(readSerpFixture(file))('#eKIzJc a.NDNGvf')
      .toArray()
      .map((link) => (link.attribs['href'] ?? '').replace(/#:~:text=.*$/, ''));
    expect(citations).toHaveLength(10);
    expect(resultsOf(file).aiOverview.map((source) => source.url)).toEqual([...new Set(citations)]);
  });

  it('keeps the overview and People also ask out of the organic results', () => {
    const { organic } = resultsOf(file);
    expect(organic[0]).toMatchObject({ position: 1, url: 'https://www.recipetineats.com/how-to-boil-eggs/', title: 'How to boil eggs' });
    const found = urls(organic).join('\n');
    expect(found).not.toContain('incredibleegg.org'); // cited by the overview and a PAA answer only
    expect(found).not.toContain('elenabesser.com');
    expect(found).not.toContain('bonappetit.com');
    expect(found).not.toContain('irRYWaygK58'); // a video inside a PAA answer
  });

  it('counts a single video result of the main column as organic', () => {
    expect(urls(resultsOf(file).organic)).toContain('https://www.youtube.com/shorts/yLcFn9eChys');
  });
});

describe('desktop 2025 entity page (fra50 billie)', () => {
  const file = 'fra50__persistent_browser_service__billie.html';

  it('has no AI Overview', () => {
    expect(resultsOf(file).aiOverview).toEqual([]);
  });

  it('reads the organic results and leaves out People also ask and the entity panel', () => {
    const { organic } = resultsOf(file);
    expect(organic[0]).toMatchObject({ position: 1, url: 'https://www.instagram.com/billieeilish/', domain: 'instagram.com' });
    const found = urls(organic).join('\n');
    expect(found).not.toContain('eds.clinic');
    expect(found).not.toContain('elle.com');
    expect(found).not.toContain('facebook.com/CBSNews');
    expect(found).toContain('https://store.billieeilish.com/pages/tour'); // srsltid dropped
  });
});

describe('pages that are not results', () => {
  it.each([
    'fra50__persistent_browser_service__google_serp-captcha.html',
    'karust__openserp__search_captcha_new.html',
    'zlurad__serp-parser__desktop-recaptcha.html',
  ])('%s is blocked by a captcha', (file) => {
    expect(parseFixture(file)).toEqual({ kind: 'blocked', reason: 'captcha' });
  });

  it('reads the JavaScript challenge as blocked', () => {
    expect(parseFixture('aileadbooker__ai-lead-booker__debug_google-enablejs.html')).toEqual({
      kind: 'blocked',
      reason: 'javascript-challenge',
    });
  });

  it.each(['zlurad__serp-parser__desktop-no-results.html', 'karust__openserp__search_no_results.html'])(
    '%s is a real zero-results page',
    (file) => {
      expect(parseFixture(file)).toEqual({ kind: 'no-results' });
    },
  );
});

describe("Google's cookie-consent interstitial", () => {
  const consentPage = 'handmade__google-consent.html';

  it('the hand-made consent page (consent.google.com/ml) is consent, by its forms posting to consent.google.com/save', () => {
    expect(parseFixture(consentPage)).toEqual({ kind: 'consent', detail: 'a form posting to consent.google.com/save' });
  });

  it('and by its URL when the browser was redirected there', () => {
    const url = 'https://consent.google.com/ml?continue=https://www.google.com/search%3Fq%3Drunning%2Bshoes&gl=DE&m=0&pc=srp&hl=en&src=1';
    expect(parseSerpPage(readSerpFixture(consentPage), { url })).toEqual({
      kind: 'consent',
      detail: 'the browser was sent to consent.google.com/ml',
    });
  });

  it('the 2023 desktop pages carry the in-page consent dialog over their results, and are still read as results', () => {
    const dialogPages = [
      'zlurad__serp-parser__desktop-google.html',
      'zlurad__serp-parser__desktop-coffee.html',
      'zlurad__serp-parser__desktop-featured-snippet.html',
    ];
    for (const file of dialogPages) {
      const $ = load(readSerpFixture(file));
      expect($('[role="dialog"][aria-label="Before you continue to Google Search"]')).toHaveLength(1);
      expect(resultsOf(file).organic.length).toBeGreaterThan(0);
    }
    // The "no results" page has the same dialog: Google's answer is still "nothing found".
    expect(parseFixture('zlurad__serp-parser__desktop-no-results.html')).toEqual({ kind: 'no-results' });
  });
});
