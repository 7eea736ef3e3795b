import { QueryAbandoned, ReadGate } from './read-gate';

/** A read that ends when the test says so, and says whether it started. */
function heldRead() {
  let finish!: () => void;
  const read = {
    started: false,
    finish: () => finish(),
    run: () => new Promise<void>((resolve) => ((read.started = true), (finish = resolve))),
  };
  return read;
}
const turnOf = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadGate', () => {
  it('runs a few reads at once, the others in their order as places free', async () => {
    const gate = new ReadGate(2);
    const reads = [heldRead(), heldRead(), heldRead(), heldRead()];
    const done = reads.map((read) => gate.run(undefined, read.run));
    await turnOf();
    expect(reads.map((r) => r.started)).toEqual([true, true, false, false]);
    reads[1]!.finish();
    await turnOf();
    expect(reads.map((r) => r.started)).toEqual([true, true, true, false]);
    reads[0]!.finish();
    reads[2]!.finish();
    await turnOf();
    expect(reads[3]!.started).toBe(true);
    reads[3]!.finish();
    await Promise.all(done);
  });

  it('drops a waiting read whose caller has gone: it never runs, and the next one takes the place', async () => {
    const gate = new ReadGate(1);
    const first = heldRead();
    const abandoned = heldRead();
    const next = heldRead();
    const gone = new AbortController();
    const running = gate.run(undefined, first.run);
    const dropped = gate.run(gone.signal, abandoned.run);
    const waiting = gate.run(undefined, next.run);
    gone.abort();
    await expect(dropped).rejects.toBeInstanceOf(QueryAbandoned);
    first.finish();
    await turnOf();
    expect([abandoned.started, next.started]).toEqual([false, true]);
    next.finish();
    await Promise.all([running, waiting]);
  });

  it('never starts a read whose caller has gone already, even with places free', async () => {
    const gate = new ReadGate(4);
    const read = heldRead();
    await expect(gate.run(AbortSignal.abort(), read.run)).rejects.toBeInstanceOf(QueryAbandoned);
    expect(read.started).toBe(false);
  });

  it('frees the place of a read that failed', async () => {
    const gate = new ReadGate(1);
    await expect(gate.run(undefined, () => Promise.reject(new Error('engine down')))).rejects.toThrow('engine down');
    await expect(gate.run(undefined, () => Promise.resolve(7))).resolves.toBe(7);
  });
});

describe('ReadGate at close', () => {
  it('refuses the reads waiting and later ones, and resolves once the running ones have ended', async () => {
    const gate = new ReadGate(1);
    const running = heldRead();
    const waiting = heldRead();
    const first = gate.run(undefined, running.run);
    const second = gate.run(undefined, waiting.run);
    await turnOf();
    const closed = new Error('closed');
    let drained = false;
    const closing = gate.close(closed).then(() => (drained = true));
    await expect(second).rejects.toBe(closed);
    await expect(gate.run(undefined, () => Promise.resolve(1))).rejects.toBe(closed);
    await turnOf();
    expect(drained).toBe(false);
    running.finish();
    await Promise.all([first, closing]);
    expect(waiting.started).toBe(false);
  });
});

describe('ReadGate, a read cut off under way', () => {
  it('is reported abandoned when it failed after its caller had gone, and as its own failure otherwise', async () => {
    const gate = new ReadGate(1);
    const gone = new AbortController();
    const cutOff = gate.run(gone.signal, async () => {
      gone.abort();
      throw new Error('Query aborted');
    });
    await expect(cutOff).rejects.toBeInstanceOf(QueryAbandoned);
    await expect(gate.run(new AbortController().signal, () => Promise.reject(new Error('engine down')))).rejects.toThrow('engine down');
  });
});
