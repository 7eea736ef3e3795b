/** A project's settings, as the spec's Project table has them (keywords and notes live elsewhere). */
export const UPDATE_FREQUENCIES = ['daily', 'every3days', 'weekly', 'biweekly', 'custom'] as const;
export type UpdateFrequency = (typeof UPDATE_FREQUENCIES)[number];
export const SERP_DEPTHS = [50, 100] as const;
export type SerpDepth = (typeof SERP_DEPTHS)[number];

export interface ProjectSettings {
  name: string;
  domain: string;
  aliases: string[];
  icon: string;
  shared: boolean;
  updateFrequency: UpdateFrequency;
  /** Weekdays 0-6 (0 = Sunday), sorted; empty unless `updateFrequency` is `custom`. */
  customUpdateDays: number[];
  updateTime: number;
  updateTimezone: string;
  serpTop: SerpDepth;
}

export const DEFAULT_SETTINGS: Omit<ProjectSettings, 'name' | 'domain'> = {
  aliases: [],
  icon: '',
  shared: false,
  updateFrequency: 'daily',
  customUpdateDays: [],
  updateTime: 12,
  updateTimezone: 'UTC',
  serpTop: 50,
};

/** Checks of a keyword per month, by frequency (clarifications: capacity.booked). */
export function refreshesPerMonth(settings: Pick<ProjectSettings, 'updateFrequency' | 'customUpdateDays'>): number {
  switch (settings.updateFrequency) {
    case 'daily':
      return 30;
    case 'every3days':
      return 10;
    case 'weekly':
      return 4;
    case 'biweekly':
      return 2;
    case 'custom':
      return 4 * settings.customUpdateDays.length;
  }
}

/** Credits or tokens one check of one keyword costs: double for a 100-deep scrape. */
export const checkCost = (serpTop: SerpDepth) => (serpTop === 100 ? 2 : 1);
