/**
 * The spec's Limits table, as the capacity record shows it. It lives in the shared kernel because
 * several contexts enforce parts of it (the project decider the keywords, the account decider the
 * keys) and the capacity record shows all of it; each decider reads its limit from here.
 */
export const LIMITS = {
  keywordsPerProject: 3500,
  apiKeysPerAccount: 5,
  competitorsPerRequest: 50,
  rateLimits: {
    serpCheck: { perMinute: 10, windowSeconds: 60 },
    trafficCheck: { perMinute: 20, windowSeconds: 60 },
    keywordResearch: { perMinute: 15, perHour: 150 },
    domainReads: { perMinute: 60, perHour: 600 },
    newDomainsPerDay: {
      limit: 400,
      appliesTo: [
        '/api/tools/traffic-check',
        '/api/projects/webtraffic',
        '/api/projects/pagespeed',
        '/api/projects/crux-history',
        '/api/projects/competitors-filtered',
      ],
    },
  },
} as const;
