import { MAX_ACTIVE_API_KEYS } from '@rank/accounts/domain/account';
import { MAX_KEYWORDS_PER_PROJECT } from '@rank/projects/domain/project-content';

/** The spec's Limits table, as the capacity record shows it; the deciders enforce the same constants. */
export const LIMITS = {
  keywordsPerProject: MAX_KEYWORDS_PER_PROJECT,
  apiKeysPerAccount: MAX_ACTIVE_API_KEYS,
  competitorsPerRequest: 50,
  rateLimits: {
    serpCheck: { perMinute: 10, windowSeconds: 60 },
    trafficCheck: { perMinute: 20, windowSeconds: 60 },
    keywordResearch: { perMinute: 15, perHour: 150 },
    domainReads: { perMinute: 60, perHour: 600 },
    newDomainsPerDay: {
      limit: 400,
      appliesTo: ['/api/tools/traffic-check', '/api/projects/webtraffic', '/api/projects/pagespeed', '/api/projects/crux-history', '/api/projects/competitors-filtered'],
    },
  },
} as const;
