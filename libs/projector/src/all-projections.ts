import type { Projection } from '@rank/read-store/projection';
import { accountDirectoryProjection } from '@rank/accounts/list-accounts/account-directory.projection';
import { recordsProjection } from '@rank/projects/records.projection';
import { trackingProjection } from '@rank/tracking/tracking.projection';
import { domainDataProjection } from '@rank/domains/domain-data.projection';
import { volumesProjection } from '@rank/research/volumes.projection';

/** Every projection that builds the ClickHouse read models, in the order they run for each event. */
export const ALL_PROJECTIONS: readonly Projection[] = [
  accountDirectoryProjection,
  recordsProjection,
  trackingProjection,
  domainDataProjection,
  volumesProjection,
];
