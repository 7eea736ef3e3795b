/**
 * Start-up time: from calling createApp (stores opened, read-model migrations checked, Nest wired,
 * server listening) to the first 200 from GET /health. On an empty data directory (first start of an
 * installation: migrations create every table), and on one holding an account with a 3,500-keyword
 * project (a restart). Each is started a few times; the first start of the process also pays for
 * loading chDB's engine, so every run is printed. Takes a few seconds.
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../apps/api/src/bootstrap';
import { benchConfig, BenchAppDirs, newBenchDirs, removeBenchDirs, startBenchApp, waitForHealth } from './support/bench-app';
import { addKeywords, createProject, FULL_PROJECT_KEYWORDS } from './support/projects';
import { median, ms } from './support/stats';

const RUNS = 3;

export async function run(): Promise<void> {
  const empty: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dirs = newBenchDirs('startup-empty');
    try {
      empty.push(await timeStart(dirs));
    } finally {
      removeBenchDirs(dirs);
    }
  }

  const dirs = newBenchDirs('startup-project');
  try {
    const app = await startBenchApp(dirs);
    try {
      const { apiKey } = await app.openAccount();
      const projectId = await createProject(app, apiKey, 'Startup shop');
      await addKeywords(app, apiKey, projectId, FULL_PROJECT_KEYWORDS);
      // Let the read models catch up, so the restart measures a start, not a backlog.
      await app.projectionsCaughtUp();
    } finally {
      await app.close({ keepData: true });
    }
    const withProject: number[] = [];
    for (let i = 0; i < RUNS; i++) withProject.push(await timeStart(dirs));

    console.log('start-up, createApp() to the first 200 from GET /health:');
    console.log(`  empty data dir:                 median ${ms(median(empty))} (runs: ${empty.map((t) => t.toFixed(0)).join(', ')} ms)`);
    console.log(
      `  with a ${FULL_PROJECT_KEYWORDS.toLocaleString('en-US')}-keyword project: median ${ms(median(withProject))} (runs: ${withProject.map((t) => t.toFixed(0)).join(', ')} ms)`,
    );
  } finally {
    removeBenchDirs(dirs);
  }
}

/** One start and stop on `dirs`; returns the milliseconds to the first healthy answer. */
async function timeStart(dirs: BenchAppDirs): Promise<number> {
  const config = benchConfig(dirs);
  const started = performance.now();
  const running = await createApp(config);
  try {
    await waitForHealth(running.url);
    return performance.now() - started;
  } finally {
    await running.close();
  }
}
