/**
 * The pause of a polling loop that an in-process event can cut short: an append in this process,
 * a handler finishing, a stop. A wake that arrives while the loop is busy (between `startRound` and
 * `pause`) is kept, so the loop does not then wait a whole poll interval for news it already had.
 */
export class WakeUpCall {
  private wakeRequested = false;
  private endPause: (() => void) | undefined;

  /** Called at the top of each round: wakes from before this point have been seen. */
  startRound(): void {
    this.wakeRequested = false;
  }

  wake(): void {
    this.wakeRequested = true;
    this.endPause?.();
  }

  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.endPause = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.endPause = done;
      if (this.wakeRequested) done();
    });
  }
}
