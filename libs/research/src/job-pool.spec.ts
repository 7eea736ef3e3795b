import { JobPool } from './job-pool';

/** A job that ends when the test says so. */
function controlled() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const run = (job: { id: string; key: string }) =>
    new Promise<void>((resolve) => {
      started.push(job.id);
      finish.set(job.id, resolve);
    });
  const end = async (id: string) => {
    finish.get(id)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, run, end };
}

describe('JobPool', () => {
  it('runs up to its size at once, in order, and starts a job added later as soon as a place is free', async () => {
    const { started, run, end } = controlled();
    const pool = new JobPool(2, run);
    pool.add({ id: 'a', key: '1' }, { id: 'b', key: '2' }, { id: 'c', key: '3' });
    expect(started).toEqual(['a', 'b']);
    await end('b');
    expect(started).toEqual(['a', 'b', 'c']);
    pool.add({ id: 'd', key: '4' });
    expect(pool.pending).toBe(3);
    await end('a');
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    await Promise.all([end('c'), end('d')]);
    expect(pool.pending).toBe(0);
  });

  it('keeps a job waiting while mayStart refuses it, and lets later ones pass it', async () => {
    const { started, run, end } = controlled();
    const pool = new JobPool(3, run, { mayStart: (job, running) => !running.some((r) => r.key === job.key) });
    pool.add({ id: 'a', key: 'p1' }, { id: 'b', key: 'p1' }, { id: 'c', key: 'p2' });
    expect(started).toEqual(['a', 'c']);
    await end('a');
    expect(started).toEqual(['a', 'c', 'b']);
  });

  it('reports a failed job and goes on; stop starts nothing more', async () => {
    const errors: unknown[] = [];
    const seen: string[] = [];
    const pool = new JobPool<string>(
      1,
      async (job) => {
        seen.push(job);
        if (job === 'bad') throw new Error('boom');
      },
      { onSettled: (error) => errors.push(error) },
    );
    pool.add('bad', 'good');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(['bad', 'good']);
    expect(errors.map((e) => (e instanceof Error ? e.message : e))).toEqual(['boom', undefined]);
    await pool.stop();
    pool.add('late');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(['bad', 'good']);
  });
});
