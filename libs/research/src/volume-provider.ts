import type { KeywordMetrics, Market, VolumeSource } from './domain/volume.events';

/**
 * What the research context needs of a keyword-data provider for volumes: the figures of up to
 * 1,000 keyword texts of one market in one call. Built from the configured provider of
 * libs/providers (see research-providers.ts); null when none is configured.
 */
export interface VolumeProvider {
  readonly source: VolumeSource;
  /** One entry per text the provider knows; texts it does not know may be missing. Throws UpstreamError. */
  searchVolumes(market: Market, keywords: readonly string[]): Promise<KeywordMetrics[]>;
}

export const VOLUME_PROVIDER = Symbol('VOLUME_PROVIDER');
