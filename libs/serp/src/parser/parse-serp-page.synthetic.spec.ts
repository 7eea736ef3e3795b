import { parseSerpPage } from './parse-serp-page';
import type { SerpPage } from './serp-page';

/**
 * Small hand-written pages for the rules the saved pages cannot pin down on their own: the
 * verdicts for pages that are not (readable) result pages, and edge cases of the counting rules.
 */

/** A minimal desktop result page: search box, results column, and whatever `body` adds. */
function googlePage(results: string, extra = ''): string {
  return `<!doctype html><html><head><title>q - Google Search</title></head><body id="gsr">
    <form action="/search"><textarea name="q">q</textarea></form>
    <div id="main"><div id="cnt"><div id="rcnt"><div id="center_col">
      ${extra}
      <div id="res"><div id="search"><div id="rso">${results}</div></div></div>
    </div></div></div></div>
    <div id="footcnt"><div id="fbar" role="contentinfo">Footer</div></div>
  </body></html>`;
}

/** A minimal mobile result page: as real ones, `#cnt` without the desktop's `#rcnt`. */
function mobileGooglePage(results: string): string {
  return `<!doctype html><html><head><title>q - Google Search</title></head><body>
    <form action="/search"><textarea name="q">q</textarea></form>
    <div id="main"><div id="cnt"><div id="rso">${results}</div></div></div>
    <div id="fbar" role="contentinfo">Footer</div>
  </body></html>`;
}

function webResult(href: string, title: string, snippet = 'A snippet.'): string {
  return `<div class="g"><div class="yuRUbf"><a href="${href}"><h3>${title}</h3><cite>${href}</cite></a></div>
    <div class="VwiC3b">${snippet}</div></div>`;
}

function expectResults(page: SerpPage): Extract<SerpPage, { kind: 'results' }> {
  if (page.kind !== 'results') throw new Error(`expected results, got ${JSON.stringify(page)}`);
  return page;
}

describe('parseSerpPage: pages it cannot read are "unrecognised", never an empty result list', () => {
  it('an empty document', () => {
    expect(parseSerpPage('')).toMatchObject({ kind: 'unrecognised' });
  });

  it('a page of another site, even one with h3 links', () => {
    const page = parseSerpPage('<html><body><div id="main"><a href="https://blog.example/post"><h3>A post</h3></a></div></body></html>');
    expect(page.kind).toBe('unrecognised');
    expect(page.kind === 'unrecognised' && page.detail).toMatch(/not a Google result page/);
  });

  it('a Google result page whose results are in a markup the parser does not know', () => {
    const page = parseSerpPage(googlePage('<div class="new-card"><span class="title">Example</span></div>'));
    expect(page.kind).toBe('unrecognised');
    expect(page.kind === 'unrecognised' && page.detail).toMatch(/no organic result and no "no results" message/);
  });

  it("a result page cut short before Google's footer, whose list would stop at the cut", () => {
    const whole = googlePage(webResult('https://a.example/', 'A') + webResult('https://b.example/', 'B'));
    expect(parseSerpPage(whole).kind).toBe('results');
    const page = parseSerpPage(whole.slice(0, whole.indexOf('https://b.example/')));
    expect(page.kind).toBe('unrecognised');
    expect(page.kind === 'unrecognised' && page.detail).toMatch(/stops before Google's footer/);
  });

  it('a desktop result page whose results lost their h3 titles, even with a carousel titled by role=heading', () => {
    // Before: the majority rule read the carousel's links as the results.
    const brands = ['nike', 'asics', 'hoka']
      .map((brand) => `<a href="https://www.${brand}.example/"><div role="heading">${brand}</div></a>`)
      .join('');
    const titles = `<div class="g"><a href="https://a.example/"><div class="title">A</div></a></div>`;
    const page = parseSerpPage(googlePage(titles, `<div class="brands">${brands}</div>`));
    expect(page.kind).toBe('unrecognised');
  });

  it('a Google result page whose only title links are ads and People also ask', () => {
    const page = parseSerpPage(
      googlePage(
        `<div class="related-question-pair"><a href="https://paa.example/"><h3>A question</h3></a></div>`,
        `<div id="tads"><div data-text-ad="1"><a href="https://ad.example/"><div role="heading">Ad</div></a></div></div>`,
      ),
    );
    expect(page.kind).toBe('unrecognised');
  });
});

describe('parseSerpPage: block pages are "blocked"', () => {
  it('the reCAPTCHA page', () => {
    const html = `<html><body><form id="captcha-form" action="index"><div class="g-recaptcha" data-sitekey="6Le"></div>
      <input type="hidden" name="q" value="EgQ"></form></body></html>`;
    expect(parseSerpPage(html)).toEqual({ kind: 'blocked', reason: 'captcha' });
  });

  it('a reCAPTCHA widget without the form', () => {
    expect(parseSerpPage('<html><body><div data-sitekey="6Le"></div></body></html>')).toEqual({
      kind: 'blocked',
      reason: 'captcha',
    });
  });

  it('the "unusual traffic" page without a captcha', () => {
    const html = `<html><body><div>Our systems have detected unusual traffic from your computer network.
      Please try your request again later.</div></body></html>`;
    expect(parseSerpPage(html)).toEqual({ kind: 'blocked', reason: 'unusual-traffic' });
  });

  it('the JavaScript challenge', () => {
    const html = `<html><head><title>Google Search</title></head><body>
      <noscript><meta content="0;url=/httpservice/retry/enablejs?sei=abc" http-equiv="refresh">
      <div>Please click <a href="/httpservice/retry/enablejs?sei=abc">here</a></div></noscript></body></html>`;
    expect(parseSerpPage(html)).toEqual({ kind: 'blocked', reason: 'javascript-challenge' });
  });

  it('nor a result page whose results column the parser does not know, which has a search box', () => {
    // Before: "blocked (javascript-challenge)", which rests the egress for every check.
    const noscript = '<noscript><meta content="0;url=/httpservice/retry/enablejs?sei=x" http-equiv="refresh"></noscript>';
    const renamed = googlePage(webResult('https://a.example/', 'A'), noscript).replace(
      /id="(search|rso|center_col|rcnt|res|cnt)"/g,
      'id="$1-new"',
    );
    expect(parseSerpPage(renamed)).toMatchObject({ kind: 'unrecognised' });
  });

  it('but not a result page that carries the same <noscript> redirect, as 2025 pages do', () => {
    const noscript = '<noscript><meta content="0;url=/httpservice/retry/enablejs?sei=x" http-equiv="refresh"></noscript>';
    const page = parseSerpPage(googlePage(webResult('https://a.example/', 'A'), noscript));
    expect(page.kind).toBe('results');
  });

  it('nor a result page whose snippet talks about "unusual traffic"', () => {
    const snippet = 'Why Google says it detected unusual traffic from your computer network, and what to do.';
    expect(parseSerpPage(googlePage(webResult('https://a.example/', 'A', snippet))).kind).toBe('results');
  });
});

describe('parseSerpPage: Google\'s cookie-consent interstitial is "consent", never unrecognised or empty', () => {
  const consentForm = (action: string, label: string, setEom: boolean) =>
    `<form action="${action}" method="POST"><input type="hidden" name="continue" value="https://www.google.com/search?q=q">
      <input type="hidden" name="set_eom" value="${setEom}"><button type="submit">${label}</button></form>`;
  /** The in-page dialog of 2023: buttons wired by script, no form in the HTML. */
  const dialog = (reject: string, accept: string) =>
    `<div role="dialog" aria-modal="true" aria-label="Before you continue to Google Search"><h1>Before you continue to Google</h1>
      <button id="W0wltc"><div role="none">${reject}</div></button><button id="L2AGLb"><div role="none">${accept}</div></button></div>`;

  it('a page whose buttons post to consent.google.com/save', () => {
    const html = `<html><body><h1>Before you continue to Google</h1>
      ${consentForm('https://consent.google.com/save', 'Reject all', true)}${consentForm('https://consent.google.com/save', 'Accept all', false)}</body></html>`;
    expect(parseSerpPage(html)).toEqual({ kind: 'consent', detail: 'a form posting to consent.google.com/save' });
  });

  it('the same on a country domain, with a protocol-relative action', () => {
    const html = `<html><body>${consentForm('//consent.google.de/save', 'Alle ablehnen', true)}</body></html>`;
    expect(parseSerpPage(html)).toEqual({ kind: 'consent', detail: 'a form posting to consent.google.de/save' });
  });

  it('the 2020 dialog, a frame of consent.google.com', () => {
    const html = `<html><body><div role="dialog"><iframe src="https://consent.google.com/?hl=en&amp;origin=https://www.google.com"></iframe></div></body></html>`;
    expect(parseSerpPage(html)).toEqual({ kind: 'consent', detail: 'a frame of consent.google.com' });
  });

  it('the in-page dialog on a page with a search box but an empty results column', () => {
    expect(parseSerpPage(googlePage('', dialog('Reject all', 'Accept all')))).toEqual({
      kind: 'consent',
      detail: 'a dialog with a "Reject all" button',
    });
  });

  it('the in-page dialog in German and French on a page without a results column', () => {
    const page = (html: string) => `<html><body><form action="/search"><input name="q"></form>${html}</body></html>`;
    expect(parseSerpPage(page(dialog('Alle ablehnen', 'Alle akzeptieren')))).toMatchObject({ kind: 'consent' });
    expect(parseSerpPage(page(dialog('Tout refuser', 'Tout accepter')))).toMatchObject({ kind: 'consent' });
  });

  describe('when the browser ended on consent.google.<tld>, whatever the document holds', () => {
    it.each([
      [
        'https://consent.google.com/ml?continue=https://www.google.com/search%3Fq%3Dq&gl=DE&m=0&pc=srp&hl=de&src=1',
        'consent.google.com/ml',
      ],
      ['https://consent.google.com/m?continue=https://www.google.com/search%3Fq%3Dq&gl=FR&hl=fr', 'consent.google.com/m'],
      ['https://consent.google.co.uk/ml?continue=https://www.google.co.uk/search%3Fq%3Dq', 'consent.google.co.uk/ml'],
    ])('%s', (url, where) => {
      expect(parseSerpPage('<html><head></head><body><div id="root"></div></body></html>', { url })).toEqual({
        kind: 'consent',
        detail: `the browser was sent to ${where}`,
      });
      expect(parseSerpPage('', { url })).toMatchObject({ kind: 'consent' });
    });
  });

  describe('but not', () => {
    it('a result page under the dialog: the dialog overlays real results, which are read', () => {
      const page = parseSerpPage(googlePage(webResult('https://a.example/', 'A'), dialog('Reject all', 'Accept all')));
      expect(expectResults(page).organic.map((result) => result.url)).toEqual(['https://a.example/']);
    });

    it('a "no results" page under the dialog: Google did answer', () => {
      const message = `<div id="topstuff"><p role="heading">Your search - <b>zzqx</b> - did not match any documents.</p></div>`;
      expect(parseSerpPage(googlePage('', dialog('Reject all', 'Accept all') + message))).toEqual({ kind: 'no-results' });
    });

    it('a result page reached at a www.google.com URL that mentions consent.google.com', () => {
      const url = 'https://www.google.com/search?q=consent.google.com&hl=en';
      const more = '<a href="https://consent.google.com/d?continue=https://www.google.com/search">More options</a>';
      expect(parseSerpPage(googlePage(webResult('https://a.example/', 'A'), more), { url }).kind).toBe('results');
    });

    it('a page of another site with a consent-looking form or a relative /save form', () => {
      const other = `<html><body>${consentForm('https://consent.example.com/save', 'Accept all', false)}</body></html>`;
      const relative = `<html><body>${consentForm('/save', 'Accept all', false)}</body></html>`;
      expect(parseSerpPage(other).kind).toBe('unrecognised');
      expect(parseSerpPage(relative).kind).toBe('unrecognised');
    });

    it('"Accept all" outside a dialog', () => {
      expect(parseSerpPage('<html><body><button>Accept all</button></body></html>').kind).toBe('unrecognised');
    });
  });
});

describe('parseSerpPage: "no-results" only when Google says so', () => {
  it('the English message', () => {
    const message = `<div id="topstuff"><div class="card-section"><p role="heading">Your search - <b>zzqx</b> - did not match any documents.</p></div></div>`;
    expect(parseSerpPage(googlePage('', message))).toEqual({ kind: 'no-results' });
  });

  it('the French message', () => {
    const message = `<div id="topstuff"><p role="heading">Aucun document ne correspond aux termes de recherche spécifiés (zzqx).</p></div>`;
    expect(parseSerpPage(googlePage('', message))).toEqual({ kind: 'no-results' });
  });
});

describe('parseSerpPage: counting organic results', () => {
  it('numbers web results in page order, with url, title, domain and snippet', () => {
    const page = expectResults(
      parseSerpPage(googlePage(webResult('https://www.Example.com/a', 'First', 'One.') + webResult('https://b.example/', 'Second'))),
    );
    expect(page.organic).toEqual([
      { position: 1, url: 'https://www.Example.com/a', title: 'First', domain: 'example.com', snippet: 'One.' },
      { position: 2, url: 'https://b.example/', title: 'Second', domain: 'b.example', snippet: 'A snippet.' },
    ]);
  });

  it('unwraps /url?q= redirects and drops tracking parameters', () => {
    const page = expectResults(
      parseSerpPage(googlePage(webResult('/url?q=https://a.example/p%3Fid%3D1%26utm_source%3Dx&amp;sa=U&amp;ved=2ah', 'A'))),
    );
    expect(page.organic[0]!.url).toBe('https://a.example/p?id=1');
  });

  it('does not count sitelinks, which have no heading of their own', () => {
    const withSitelinks = `<div class="g"><a href="https://a.example/"><h3>A</h3></a><div class="VwiC3b">About A.</div>
      <table><tr><td><a href="https://a.example/one">One</a></td><td><a href="https://a.example/two">Two</a></td></tr></table></div>`;
    const page = expectResults(parseSerpPage(googlePage(withSitelinks + webResult('https://b.example/', 'B'))));
    expect(page.organic.map((result) => result.url)).toEqual(['https://a.example/', 'https://b.example/']);
  });

  it('counts a page linked twice (a featured snippet Google repeats below) once, at its first place', () => {
    const featured = `<block-component>${webResult('https://a.example/', 'A (featured)')}</block-component>`;
    const page = expectResults(
      parseSerpPage(googlePage(featured + webResult('https://b.example/', 'B') + webResult('https://a.example/', 'A'))),
    );
    expect(page.organic.map((result) => [result.position, result.url])).toEqual([
      [1, 'https://a.example/'],
      [2, 'https://b.example/'],
    ]);
  });

  it('leaves out ads, People also ask, carousels and the knowledge panel', () => {
    const results = `
      <div class="related-question-pair"><a href="https://paa.example/"><h3>Question?</h3></a></div>
      ${webResult('https://a.example/', 'A')}
      <g-section-with-header><a href="https://news.example/"><h3>Top story</h3></a></g-section-with-header>
      <div id="rhs"><a href="https://kp.example/"><h3>Entity</h3></a></div>`;
    const ads = `<div id="tads"><div data-text-ad="1"><a href="https://ad.example/"><h3>Ad</h3></a></div></div>`;
    const page = expectResults(parseSerpPage(googlePage(results, ads)));
    expect(page.organic.map((result) => result.url)).toEqual(['https://a.example/']);
  });

  it('reads mobile results titled by div[role=heading] when the page has no h3 titles', () => {
    const mobile = `<div class="MjjYud"><a href="https://m.example/"><div role="heading" aria-level="3">Mobile title</div></a>
      <div class="yDYNvb">Mobile snippet.</div></div>`;
    const page = expectResults(parseSerpPage(mobileGooglePage(mobile)));
    expect(page.organic).toEqual([
      { position: 1, url: 'https://m.example/', title: 'Mobile title', domain: 'm.example', snippet: 'Mobile snippet.' },
    ]);
  });

  it('ignores heading-titled feature cards on a page whose results have h3 titles', () => {
    const brands = `<div><a href="https://brand.example/"><span role="heading" aria-level="3">Brand</span></a></div>`;
    const page = expectResults(parseSerpPage(googlePage(webResult('https://a.example/', 'A') + brands)));
    expect(page.organic.map((result) => result.url)).toEqual(['https://a.example/']);
  });

  it('does not let a stray h3 link hide the div[role=heading] results of a mobile page', () => {
    const mobileResult = (n: number) =>
      `<div class="MjjYud"><a href="https://m${n}.example/"><div role="heading" aria-level="3">M${n}</div></a></div>`;
    const stray = `<div><a href="https://feature.example/"><h3>Some feature</h3></a></div>`;
    const page = expectResults(parseSerpPage(mobileGooglePage(mobileResult(1) + stray + mobileResult(2) + mobileResult(3))));
    expect(page.organic.map((result) => result.url)).toEqual(['https://m1.example/', 'https://m2.example/', 'https://m3.example/']);
  });

  it("reads the older layout's h3 > a titles", () => {
    const old = `<div class="g"><div class="rc"><h3 class="r"><a href="https://old.example/">Old title</a></h3><span class="st">Old.</span></div></div>`;
    const page = expectResults(parseSerpPage(googlePage(old)));
    expect(page.organic[0]).toMatchObject({ url: 'https://old.example/', title: 'Old title', snippet: 'Old.' });
  });
});

describe('parseSerpPage: hasNextPage', () => {
  const result = webResult('https://a.example/', 'A');
  const nextOf = (pager: string) => expectResults(parseSerpPage(googlePage(result, '') + pager)).hasNextPage;
  const withPager = (pager: string) => expectResults(parseSerpPage(googlePage(result, pager))).hasNextPage;

  it('is true with the desktop pager link a#pnnext', () => {
    expect(withPager('<a id="pnnext" href="/search?q=q&amp;start=10"><span>Next</span></a>')).toBe(true);
  });

  it('is true with the basic-HTML "Next >" link, in other languages too', () => {
    expect(withPager('<footer><a href="/search?q=q&amp;start=20" aria-label="Next page">Next &gt;</a></footer>')).toBe(true);
    expect(withPager('<footer><a href="/search?q=q&amp;start=10" aria-label="Nästa sida">Nästa &gt;</a></footer>')).toBe(true);
  });

  it('is true with the continuous-scroll "More results" link', () => {
    expect(
      withPager('<div id="botstuff"><a href="/search?q=q&amp;start=10&amp;sa=N" aria-label="More results"><h3>More results</h3></a></div>'),
    ).toBe(true);
  });

  it('is false on a last page, whose pager only goes back', () => {
    expect(withPager('<footer><a href="/search?q=q&amp;start=10" aria-label="Previous page">&lt; Prev</a></footer>')).toBe(false);
    expect(withPager('<a id="pnprev" href="/search?q=q&amp;start=0"><span>Previous</span></a>')).toBe(false);
  });

  it('is false without a pager', () => {
    expect(nextOf('')).toBe(false);
  });
});

describe('parseSerpPage: AI Overview sources', () => {
  const result = webResult('https://a.example/', 'A');

  it('lists the cited links once per URL, without #:~:text= fragments, in order of first citation', () => {
    const overview = `<div id="eKIzJc"><h1>AI overview</h1>
      <a class="NDNGvf" href="https://one.example/p#:~:text=Boil%20the%20eggs" aria-label="One - Site One"></a>
      <a class="NDNGvf" href="https://two.example/" aria-label="Two"></a>
      <a class="NDNGvf" href="https://one.example/p" aria-label="One - Site One"></a>
      <a href="https://www.youtube.com/shorts/x">a video shown in the overview</a></div>`;
    const page = expectResults(parseSerpPage(googlePage(result, overview)));
    expect(page.aiOverview).toEqual([
      { position: 1, url: 'https://one.example/p', title: 'One - Site One', domain: 'one.example' },
      { position: 2, url: 'https://two.example/', title: 'Two', domain: 'two.example' },
    ]);
    expect(page.organic.map((organic) => organic.url)).toEqual(['https://a.example/']);
  });

  it('finds an overview by its heading when its id changes, and skips Google\'s own "Learn more" link', () => {
    const overview = `<div class="renamed"><h2>AI Overview</h2>
      <a href="https://cited.example/" aria-label="Cited page"></a>
      <a href="https://support.google.com/websearch?p=ai_overviews" aria-label="Learn more about generative AI">Learn more</a></div>`;
    const page = expectResults(parseSerpPage(googlePage(result, overview)));
    expect(page.aiOverview.map((source) => source.url)).toEqual(['https://cited.example/']);
  });

  it('does not take the small overview inside a People-also-ask answer for the AI Overview', () => {
    const paa = `<div class="related-question-pair"><h2>AI Overview</h2>
      <a class="NDNGvf" href="https://paa-source.example/" aria-label="PAA source"></a></div>`;
    const page = expectResults(parseSerpPage(googlePage(result + paa)));
    expect(page.aiOverview).toEqual([]);
  });
});
