import { trimText } from './trimmed-text';

describe('trimText', () => {
  it.each([
    ['e\u0301te\u0301', '\u00e9t\u00e9'],
    ['  Clients\t', 'Clients'],
    ['\u200b\u00adname\u2060\u200d', 'name'],
    ['\u200b\u200c\u200d\u2060 ', ''],
    // Inside a text, a joiner is kept: it joins the emoji family and Persian letters.
    ['\u{1F468}\u200d\u{1F469}\u200d\u{1F467}', '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}'],
    ['\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645', '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645'],
  ])('keeps %j as %j', (input, kept) => {
    expect(trimText(input)).toBe(kept);
  });
});
