import { invalid } from '@rank/domain/domain-error';

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

/** What a create or an update says of the settings: `name` and `domain` always, the rest only when sent. */
export type SettingsChange = Pick<ProjectSettings, 'name' | 'domain'> & Partial<Omit<ProjectSettings, 'name' | 'domain'>>;

/**
 * The settings after a change: what the change does not say keeps its value in `base`, the defaults
 * or the project's settings. An update applies it when it is decided, against the project as it is
 * then, so two updates of different fields (on two replicas, say) keep both. A custom frequency needs
 * its days, sent or kept; any other frequency has none. `domain` comes normalised, as the lists do.
 */
export function applySettingsChange(
  change: SettingsChange,
  base: Omit<ProjectSettings, 'name' | 'domain'> = DEFAULT_SETTINGS,
): ProjectSettings {
  const updateFrequency = change.updateFrequency ?? base.updateFrequency;
  const customUpdateDays = change.customUpdateDays ?? base.customUpdateDays;
  if (updateFrequency === 'custom' && customUpdateDays.length === 0) {
    throw invalid('customUpdateDays is required when updateFrequency is custom: weekday numbers 0-6 (0 = Sunday)');
  }
  return {
    name: change.name,
    domain: change.domain,
    // A kept list is judged against a changed domain too: a project is never its own alias.
    aliases: (change.aliases ?? base.aliases).filter((alias) => alias !== change.domain),
    icon: change.icon ?? base.icon,
    shared: change.shared ?? base.shared,
    updateFrequency,
    customUpdateDays: updateFrequency === 'custom' ? customUpdateDays : [],
    updateTime: change.updateTime ?? base.updateTime,
    updateTimezone: change.updateTimezone ?? base.updateTimezone,
    serpTop: change.serpTop ?? base.serpTop,
  };
}

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
