import { isSameSiteOrSubdomain, normaliseDomain } from '@rank/domain/domain-name';
import type { ProjectSettings } from '@rank/projects/domain/project-settings';

/**
 * Whether a result's host belongs to a site: the site's domains themselves or any subdomain of them,
 * `www.` ignored (clarifications: Counting and matching). Used for "our domain" (the project domain
 * and its aliases) and, with one domain, for a competitor.
 */
export class DomainMatcher {
  private readonly domains: string[];

  constructor(domains: readonly string[]) {
    this.domains = [...new Set(domains.map((d) => normaliseDomain(d)).filter((d): d is string => d !== null))];
  }

  matches(host: string): boolean {
    const domain = normaliseDomain(host);
    return domain !== null && this.domains.some((own) => isSameSiteOrSubdomain(domain, own));
  }
}

/** The project's own site: its domain and its aliases. */
export const ourDomains = (settings: Pick<ProjectSettings, 'domain' | 'aliases'>) =>
  new DomainMatcher([settings.domain, ...settings.aliases]);
