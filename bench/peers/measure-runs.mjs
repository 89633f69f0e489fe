import { performance } from 'node:perf_hooks';

/**
 * Runs one unmeasured warm-up, then `runs` timed runs one after another, and prints the result
 * line the bench runner parses (the only thing a peer writes to stdout).
 *
 * A run is K tool iterations plus the model's final answering call. The final call's time stays
 * in the run's wall time but only the K tool iterations count in the divisor, exactly as the
 * Thoughtline side measures it, so every sample is "wall time of one run / K".
 */
export async function measureRuns({ name, version, iterations, runs, runOnce }) {
  await runOnce(iterations, 'warmup');
  const perIterationMs = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await runOnce(iterations, `run-${i}`);
    perIterationMs.push((performance.now() - started) / iterations);
  }
  process.stdout.write(`${JSON.stringify({ name, version, iterationsPerRun: iterations, runs, perIterationMs })}\n`);
}

/** Logs go to stderr: stdout carries the one result line. */
export function log(...parts) {
  process.stderr.write(`${parts.join(' ')}\n`);
}
