import { isTrackingParameter, resultUrlFromHref, withoutTextFragment, withoutTrackingParameters } from './google-links';

describe('resultUrlFromHref', () => {
  it('keeps a direct link as given', () => {
    expect(resultUrlFromHref('https://www.example.com/a/B?x=1&y=2#part')).toBe('https://www.example.com/a/B?x=1&y=2#part');
  });

  it("unwraps the basic-HTML and mobile redirect /url?q=, decoding the target's query once", () => {
    expect(resultUrlFromHref('/url?q=https://www.google.com/imghp%3Fhl%3DEN&sa=U&ved=2ahUKEwjkq82NgKX_AhXG&usg=AOvVaw0')).toBe(
      'https://www.google.com/imghp?hl=EN',
    );
    expect(resultUrlFromHref('/url?q=https://en.wikipedia.org/wiki/Coffee&sa=U&ved=2ahUKEw')).toBe('https://en.wikipedia.org/wiki/Coffee');
  });

  it('unwraps the desktop redirect /url?url=, relative or absolute, on any Google domain', () => {
    expect(resultUrlFromHref('/url?sa=t&rct=j&url=https://example.org/page%3Fid%3D7&ved=2ah')).toBe('https://example.org/page?id=7');
    expect(resultUrlFromHref('https://www.google.fr/url?q=https://example.fr/&sa=U')).toBe('https://example.fr/');
  });

  it('drops tracking parameters from the target', () => {
    expect(resultUrlFromHref('https://shop.example/p?srsltid=AfmBOop&color=red&utm_source=google')).toBe(
      'https://shop.example/p?color=red',
    );
    expect(resultUrlFromHref('/url?q=https://example.com/%3Futm_medium%3Dcpc%26id%3D3&sa=U')).toBe('https://example.com/?id=3');
  });

  it("reads the page behind Google Translate and the AMP viewer, which is the result (before: Google's or the proxy's host)", () => {
    expect(resultUrlFromHref('https://www-my--proj-com.translate.goog/eggs?id=1&_x_tr_sl=de&_x_tr_tl=en&_x_tr_hl=en')).toBe(
      'https://www.my-proj.com/eggs?id=1',
    );
    expect(resultUrlFromHref('https://old-example-org.translate.goog/?_x_tr_sch=http&_x_tr_sl=fr&_x_tr_tl=en')).toBe(
      'http://old.example.org/',
    );
    expect(resultUrlFromHref('https://translate.google.com/translate?hl=en&sl=de&u=https://www.myproj.com/eggs%3Futm_source%3Dx')).toBe(
      'https://www.myproj.com/eggs',
    );
    expect(resultUrlFromHref('https://www.google.com/amp/s/www.myproj.com/amp/eggs')).toBe('https://www.myproj.com/amp/eggs');
    expect(resultUrlFromHref('/amp/s/www.myproj.com/amp/eggs')).toBe('https://www.myproj.com/amp/eggs');
    expect(resultUrlFromHref('https://www-myproj-com.cdn.ampproject.org/c/s/www.myproj.com/amp/eggs')).toBe(
      'https://www.myproj.com/amp/eggs',
    );
    // Not proxies: a site's own /amp/ page, a host that only contains the words.
    expect(resultUrlFromHref('https://news.example/amp/s/story')).toBe('https://news.example/amp/s/story');
    expect(resultUrlFromHref('https://translate.goog.example/page')).toBe('https://translate.goog.example/page');
  });

  it("returns null for links that stay on Google's result pages", () => {
    expect(resultUrlFromHref('/search?q=coffee&start=10')).toBeNull();
    expect(resultUrlFromHref('https://www.google.com/search?q=coffee&tbm=nws')).toBeNull();
    expect(resultUrlFromHref('/url?q=/search%3Fq%3Dx&sa=U')).toBeNull();
    expect(resultUrlFromHref('/maps/place/Planet+Cafe')).toBeNull();
    expect(resultUrlFromHref('#')).toBeNull();
    expect(resultUrlFromHref('javascript:void(0)')).toBeNull();
    expect(resultUrlFromHref('')).toBeNull();
    expect(resultUrlFromHref(undefined)).toBeNull();
    expect(resultUrlFromHref('mailto:someone@example.com')).toBeNull();
  });

  it("keeps links to Google's other products, which are real results for some queries", () => {
    expect(resultUrlFromHref('https://maps.google.com/')).toBe('https://maps.google.com/');
    expect(resultUrlFromHref('https://www.google.com/account/about/')).toBe('https://www.google.com/account/about/');
  });
});

describe('withoutTrackingParameters', () => {
  it('drops utm_*, gclid, fbclid, srsltid, ved and the like, case-insensitively', () => {
    expect(
      withoutTrackingParameters(
        'https://a.example/x?UTM_Source=g&utm_campaign=c&gclid=1&fbclid=2&srsltid=3&ved=4&msclkid=5&_gl=6&keep=yes',
      ),
    ).toBe('https://a.example/x?keep=yes');
  });

  it('keeps the other parameters in their order, their encoding and the fragment', () => {
    expect(withoutTrackingParameters('https://a.example/x?b=2&utm_source=g&a=%20one#top')).toBe('https://a.example/x?b=2&a=%20one#top');
  });

  it('drops the "?" when no parameter is left', () => {
    expect(withoutTrackingParameters('https://a.example/x?utm_source=g&gclid=1#top')).toBe('https://a.example/x#top');
  });

  it('returns a URL without tracking parameters unchanged', () => {
    const url = 'https://a.example/Path%20With/?q=a+b&page=2';
    expect(withoutTrackingParameters(url)).toBe(url);
  });

  it('does not mistake a parameter that only starts like a tracking one', () => {
    expect(withoutTrackingParameters('https://a.example/?utmost=1&vedic=2&gclid_note=3')).toBe(
      'https://a.example/?utmost=1&vedic=2&gclid_note=3',
    );
  });
});

describe('isTrackingParameter', () => {
  it.each(['utm_source', 'utm_term', 'gclid', 'fbclid', 'srsltid', 'ved', 'gbraid', 'wbraid'])('%s is tracking', (name) => {
    expect(isTrackingParameter(name)).toBe(true);
  });

  it.each(['q', 'id', 'page', 'hl', 'utm', 'source'])('%s is not', (name) => {
    expect(isTrackingParameter(name)).toBe(false);
  });
});

describe('withoutTextFragment', () => {
  it('removes a #:~:text= fragment and keeps other fragments', () => {
    expect(withoutTextFragment('https://a.example/p#:~:text=Hard%2Dboiled%20eggs')).toBe('https://a.example/p');
    expect(withoutTextFragment('https://a.example/p#section-2')).toBe('https://a.example/p#section-2');
  });
});
