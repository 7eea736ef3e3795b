import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { EventStore } from '@rank/event-store/event-store.port';
import { CLOCK, Clock, EVENT_STORE } from '@rank/platform/tokens';
import { VolumeFetcher } from './volume-fetcher';
import { KEYWORD_DATA_PROVIDER, KeywordDataProvider } from './keyword-data-providers';
import { VolumeRecorder } from './volume-recorder';
import { VolumesReader } from './volumes.reader';

/**
 * Runs the volume fetcher in the process with the `projections` role (one follower of the log; a
 * second one only repeats fetches). Without a keyword-data provider it does nothing and says so once.
 */
@Injectable()
export class VolumeFetcherLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Volumes');
  private fetcher: VolumeFetcher | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly reader: VolumesReader,
    private readonly recorder: VolumeRecorder,
    @Optional() @Inject(KEYWORD_DATA_PROVIDER) private readonly provider: KeywordDataProvider | null = null,
  ) {}

  /** The running fetcher (for tests and the bench); undefined without a provider. */
  get current(): VolumeFetcher | undefined {
    return this.fetcher;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.provider) {
      this.logger.log('No keyword-data provider is configured (DATAFORSEO_LOGIN or GOOGLE_ADS_*): keyword volumes will not be fetched');
      return;
    }
    this.logger.log(`Keyword volumes are fetched from ${this.provider.source}`);
    this.fetcher = new VolumeFetcher({
      store: this.store,
      provider: this.provider,
      recorder: this.recorder,
      stored: (keywords) => this.reader.latest(keywords),
      staleTracked: (before, limit) => this.reader.staleTracked(before, limit),
      now: () => this.clock.now(),
      log: (message) => this.logger.warn(message),
    });
    await this.fetcher.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.fetcher?.stop();
  }
}
