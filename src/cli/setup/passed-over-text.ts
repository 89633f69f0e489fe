import { counted } from '../../domain/text/counted';

/**
 * What `run` and `eval` say when they pass over workers of another build on the configured queue:
 * `what` ("this run", "the evaluation") goes to this process's own worker on `own` instead.
 */
export const passedOverText = (what: string, workers: readonly string[], configured: string, own: string): string =>
  [
    `${counted(workers.length, 'worker')} polling task queue "${configured}" ${workers.length === 1 ? 'runs' : 'run'} other code than this checkout (another checkout or version of Thoughtline):`,
    ...workers.map((w) => `  ${w}`),
    `A run there could be taken by them, with their code, tools and model; ${what} goes to this process's own worker on task queue "${own}" instead.`,
    `To use those workers, run thoughtline from their checkout (or pass --no-worker to send ${what === 'this run' ? 'the run' : what} to them anyway).`,
  ].join('\n');
