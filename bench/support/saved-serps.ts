import { repositoryPath } from '@rank/platform/repository-path';

/** The saved Google pages, found from the repository root: the benches run compiled under dist/, where no fixture is copied. */
export const SAVED_SERP_DIR = repositoryPath('libs', 'serp', 'test-fixtures', 'serp');
