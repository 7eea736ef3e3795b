/**
 * Containers on a Google result page whose links are not organic results; a title link inside one
 * of them is skipped. Google's class names change every year or two, so ids, custom elements and
 * data attributes (which change less) are preferred, and a class name is used only where nothing
 * steadier marks the feature. Each entry says where it was seen: the saved pages in
 * scraper/test-fixtures/serp (2019–2025), or, marked "older", layouts known from before them.
 */
export const NON_ORGANIC_CONTAINER_SELECTORS: readonly string[] = [
  // --- Ads and shopping units ---------------------------------------------------------------
  '#tads', // top text ads: desktop 2023–2025, mobile 2023
  '#tadsb', // bottom text ads: desktop 2025
  '#bottomads', // bottom ads wrapper: desktop 2019–2025
  '#tvcap', // top ads wrapper, shopping ads included: desktop 2019–2025, mobile 2023
  '#atvcap', // top ads wrapper: desktop 2019–2025
  '[data-text-ad]', // one text ad: desktop and mobile 2023
  '.commercial-unit-desktop-top', // "Sponsored products" shopping ads: desktop 2023
  '.commercial-unit-desktop-rhs', // shopping ads in the right column: older
  '.commercial-unit-mobile-top', // shopping ads: mobile 2023
  '.cu-container', // shopping carousel: desktop 2023
  '.pla-unit', // one product listing ad: desktop and mobile 2023
  // --- People also ask, and the small AI overviews inside its answers ----------------------------
  '.related-question-pair', // one question: 2019–2025
  '[data-initq]', // the whole block: 2023–2025
  // --- Knowledge panel ------------------------------------------------------------------------
  '#rhs', // right column (knowledge panel): desktop 2019–2025; inside #rso in 2024
  // --- Carousels: top stories, videos, images, recipes ---------------------------------------
  'g-section-with-header', // headed carousels (top stories, videos, images, recipes): 2019–2024
  'g-scrolling-carousel', // horizontal carousels: 2019–2023
  'g-inner-card', // a card of a carousel: 2019–2025
  'video-voyager', // video carousel items: older
  '[jscontroller="UzbKLd"]', // "Videos" block: desktop 2023–2024
  '[jscontroller="cMqZ7c"]', // recipe carousel (its list is `#isl_1`): desktop and mobile 2023
  '#iur', // image pack: desktop 2019–2025
  '#imagebox_bigimages', // image pack: older
  // --- Sitelinks of a result (no saved layout titles them with an h3; older ones did) -----------
  '.usJj9c', // one card sitelink: older
  'table.jmjoTe', // the card sitelinks table: older
  '.HiHjCd', // inline sitelinks ("A · B · C"): desktop 2023–2024
  // --- AI Overview (its citations are read by ai-overview.ts) ---------------------------------
  '#eKIzJc', // desktop 2025
  // --- Below the results: related searches, "More results", bottom People also ask -----------
  '#botstuff', // 2019–2026
  '#brs', // related searches: desktop 2019
];
