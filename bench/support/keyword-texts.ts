/**
 * Distinct, realistic-looking keyword texts (already normalised: lowercase, single spaces), built
 * as modifier × product × qualifier so that every index gives a different phrase without keeping a
 * set. Realistic length matters: it is what the project stream, the JSON and the CSV carry.
 */
const MODIFIERS = [
  'best',
  'cheap',
  'buy',
  'top rated',
  'affordable',
  'lightweight',
  'waterproof',
  'vegan',
  'kids',
  'womens',
  'mens',
  'used',
];
const PRODUCTS = [
  'running shoes',
  'trail shoes',
  'hiking boots',
  'rain jacket',
  'down jacket',
  'yoga mat',
  'dumbbells',
  'kettlebell',
  'road bike',
  'bike helmet',
  'tent',
  'sleeping bag',
  'backpack',
  'climbing shoes',
  'ski goggles',
  'snowboard',
  'swim goggles',
  'wetsuit',
  'tennis racket',
  'golf balls',
  'fitness tracker',
  'heart rate monitor',
  'foam roller',
  'resistance bands',
  'treadmill',
  'rowing machine',
  'jump rope',
  'gym bag',
  'water bottle',
  'headlamp',
  'trekking poles',
  'sun hat',
  'compression socks',
  'sports bra',
  'running shorts',
  'base layer',
  'fleece',
  'soft shell',
  'gaiters',
  'crampons',
  'ice axe',
  'camping stove',
  'camp chair',
  'hammock',
  'dry bag',
  'kayak',
  'paddle board',
  'life jacket',
  'fishing rod',
  'bike lights',
];
const QUALIFIERS = ['', 'near me', 'sale', 'review', 'for beginners', 'uk', '2025', 'size guide', 'vs', 'outlet'];

export const KEYWORD_TEXT_CAPACITY = MODIFIERS.length * PRODUCTS.length * QUALIFIERS.length;

export function keywordTexts(count: number): string[] {
  if (count > KEYWORD_TEXT_CAPACITY) throw new Error(`at most ${KEYWORD_TEXT_CAPACITY} distinct keyword texts`);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const modifier = MODIFIERS[i % MODIFIERS.length]!;
    const product = PRODUCTS[Math.floor(i / MODIFIERS.length) % PRODUCTS.length]!;
    const qualifier = QUALIFIERS[Math.floor(i / (MODIFIERS.length * PRODUCTS.length))]!;
    texts.push(`${modifier} ${product}${qualifier ? ` ${qualifier}` : ''}`);
  }
  return texts;
}
