import type { FakeAnswer, FakeRoute, SeenRequest } from './fake-json-api';

/**
 * Failures a test lines up for the next requests, ahead of the fake's normal answers: "the next two
 * calls get a 503, then it works" is how a retry is shown to happen and to stop.
 */
export class AnswerQueue {
  private readonly queued: FakeAnswer[] = [];

  /** The next `times` requests get `answer`. */
  failNext(answer: FakeAnswer, times = 1): void {
    for (let i = 0; i < times; i++) this.queued.push(answer);
  }

  clear(): void {
    this.queued.length = 0;
  }

  /** Wraps the fake's route: a queued answer first, else the route's. */
  route(normal: FakeRoute): FakeRoute {
    return (request: SeenRequest) => this.queued.shift() ?? normal(request);
  }
}
