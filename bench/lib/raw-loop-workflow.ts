import { condition, defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';

/** The activities the raw loop calls; both answer at once (see temporal-floor.ts). */
export interface RawLoopActivities {
  rawModel(turn: number): Promise<string>;
  rawTool(turn: number): Promise<string>;
  /** The tool with an observation of `chars` characters, like the bench tool's. */
  rawObservation(turn: number, chars: number): Promise<string>;
}

const { rawModel, rawTool, rawObservation } = proxyActivities<RawLoopActivities>({ startToCloseTimeout: '1 minute' });

/**
 * The same loop shape as a Thoughtline run with no framework at all: per iteration one model
 * activity and one tool activity, then a final model call. Sandbox code: deterministic.
 */
export async function rawLoop(iterations: number): Promise<number> {
  for (let i = 0; i < iterations; i++) {
    await rawModel(i);
    await rawTool(i);
  }
  await rawModel(iterations);
  return iterations;
}

/**
 * The same loop with observations of `observationChars` characters: the bare SDK's side of the
 * history figure, what a loop records with no framework around it.
 */
export async function rawLoopObserving(iterations: number, observationChars: number): Promise<number> {
  for (let i = 0; i < iterations; i++) {
    await rawModel(i);
    await rawObservation(i, observationChars);
  }
  await rawModel(iterations);
  return iterations;
}

/** How many iterations rawLoopThenWait has finished. */
export const rawDoneQuery = defineQuery<number>('rawDone');

/**
 * The same loop without its final model call, then waiting for ever, so it stays open to be
 * queried: the bare SDK's side of the evicted `chain` query figure (bare-evicted-query.ts).
 */
export async function rawLoopThenWait(iterations: number): Promise<never> {
  let done = 0;
  setHandler(rawDoneQuery, () => done);
  for (let i = 0; i < iterations; i++) {
    await rawModel(i);
    await rawTool(i);
    done += 1;
  }
  await condition(() => false);
  throw new Error('unreachable: the condition never holds');
}
