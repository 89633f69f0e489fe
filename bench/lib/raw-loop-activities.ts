import { setTimeout as sleep } from 'node:timers/promises';
import { observationText } from './observation-text';
import type { RawLoopActivities } from './raw-loop-workflow';

/** The bare loop's activities: the model answers after `modelDelayMs` (0: at once), the tools at once. */
export function rawLoopActivities(modelDelayMs = 0): RawLoopActivities {
  return {
    rawModel: async (turn) => {
      if (modelDelayMs > 0) await sleep(modelDelayMs);
      return `model ${turn}`;
    },
    rawTool: async (turn) => `tool ${turn}`,
    rawObservation: async (turn, chars) => observationText(turn, chars),
  };
}
