/**
 * Containers on a Google result page whose links are not organic results. A title link inside one
 * of them is skipped. Each entry says which feature and which layouts it is for: Google's class
 * names change every year or two, so ids, custom elements and data attributes (which change less)
 * come first, and class names are kept only where nothing steadier exists.
 */
export const NON_ORGANIC_CONTAINER_SELECTORS: readonly string[] = [
  // --- Ads and shopping units -------------------------------------------------------------
  '#tads', // top text ads, all layouts 2019–2025
  '#tadsb', // bottom text ads, 2019–2025
  '#bottomads', // bottom ads wrapper
  '#tvcap', // top ads wrapper incl. shopping ads (desktop and mobile 2019–2023)
  '#atvcap', // top ads wrapper, older desktop
  '[data-text-ad]', // one text ad, 2021–2025
  '.commercial-unit-desktop-top', // shopping ads ("Sponsored products"), desktop
  '.commercial-unit-desktop-rhs', // shopping ads in the right column
  '.commercial-unit-mobile-top',
  '.cu-container', // shopping carousel container
  '.pla-unit', // one product listing ad
  // --- People also ask (and the small AI overviews inside its answers) ---------------------
  '.related-question-pair', // one question, 2017–2025
  '[data-initq]', // the PAA block, 2023–2025
  // --- Knowledge panel -----------------------------------------------------------------------
  '#rhs', // right column (knowledge panel, "things to know" on desktop), 2019–2024
  // --- Carousels: top stories, videos, images, recipes, news ---------------------------------
  'g-section-with-header', // headed carousels (top stories, videos, images), 2019–2024
  'g-scrolling-carousel', // horizontal carousels
  'g-inner-card', // a card of a carousel
  'video-voyager', // video carousel items, 2020–2023
  '[jscontroller="UzbKLd"]', // "Videos" block, desktop 2023–2024
  '#iur', // image pack, 2019–2021
  '#imagebox_bigimages', // image pack
  // --- AI Overview (its citations are read separately, see ai-overview.ts) ---------------------
  '#eKIzJc', // AI Overview, desktop 2025
  // --- Below the results: related searches, "More results" ------------------------------------
  '#botstuff',
  '#brs', // related searches, 2019
];
