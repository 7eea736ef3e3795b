import type { Projection } from './projection';
import { recordsProjection } from './records/records.projection';
import { trackingProjection } from './tracking/tracking.projection';

/** Every projection that builds the ClickHouse read models, in the order they run for each event. */
export const ALL_PROJECTIONS: readonly Projection[] = [recordsProjection, trackingProjection];
