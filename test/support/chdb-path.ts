import { testChdbPath } from '@rank/read-store/testing/test-read-store';

/**
 * chDB runs one engine per process, on one data path. Every test in a jest worker process shares this
 * path (the read store's own tests too), and tests keep apart by ClickHouse database instead.
 */
export const processChdbPath = testChdbPath;
