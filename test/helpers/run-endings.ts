import { ApplicationFailure } from '@temporalio/common';
import { createScriptedModel, say, useTool, type ScriptedModel } from '../../src/activities/models/scripted-model';
import { FailureType, type AgentInputInit, type TerminationReason } from '../../src/domain';
import type { ModelProvider } from '../../src/domain/model/model-provider';
import { SCRIPTED_MODEL } from './scripted-input';

/** One run per way a run can end; the ending tests check every door against each. */
export const ENDINGS = [
  'success',
  'failure',
  'error',
  'cancelled',
  'stalled',
  'max_iterations',
  'cost_budget',
] as const;
export type Ending = (typeof ENDINGS)[number] & TerminationReason;

/** What the error run's model says: the reason every door must show for it. */
export const ENDING_ERROR = 'Could not resolve authentication method (no API key)';
/** The answers and reasons the doors must show, by ending. */
export const ENDING_ANSWER = 'alpha is 50.';
export const ENDING_GIVE_UP = 'The database needs credentials I do not have.';

/** The task of an ending's run: its key, which routes the run to its script. */
export const endingTask = (ending: Ending): string => `[ending:${ending}] Find the value of alpha.`;

/** The input of an ending's run (the scripted model, the limits that produce the ending). */
export function endingInput(ending: Ending): AgentInputInit {
  const limits: Partial<AgentInputInit> =
    ending === 'stalled'
      ? { stallThreshold: 3, onStall: 'stop' }
      : ending === 'max_iterations'
        ? { maxIterations: 1 }
        : ending === 'cost_budget'
          ? { costBudgetUsd: 0.01 }
          : {};
  return { task: endingTask(ending), model: SCRIPTED_MODEL, ...limits };
}

const lookup = (id: string) => ({ content: [useTool('lookup', { key: 'alpha' }, id)] });

function scriptOf(ending: Ending): ScriptedModel {
  switch (ending) {
    case 'success':
      return createScriptedModel([
        { content: [say('Looking up alpha.'), useTool('lookup', { key: 'alpha' }, 'toolu_s1')] },
        { content: [useTool('finish', { result: ENDING_ANSWER }, 'toolu_s2')] },
      ]);
    case 'failure':
      return createScriptedModel([
        { content: [say('I lack access.'), useTool('give_up', { reason: ENDING_GIVE_UP })] },
      ]);
    case 'stalled':
      return createScriptedModel([
        lookup('toolu_r1'),
        lookup('toolu_r2'),
        lookup('toolu_r3'),
        lookup('toolu_r4'),
        { content: [say('Summary: alpha is 50; I kept asking for it again.')] },
      ]);
    case 'max_iterations':
      return createScriptedModel([lookup('toolu_m1'), { content: [say('So far: alpha is 50.')] }]);
    case 'cost_budget':
      return createScriptedModel([{ ...lookup('toolu_c1'), costUsd: 0.05 }]);
    case 'error':
    case 'cancelled':
      return createScriptedModel([]);
  }
}

/**
 * One provider for all seven runs, routed by the key in the task: `error` fails its model call
 * as a missing key does (non-retryable `ModelAuthentication`); `cancelled` holds its call until
 * the run is cancelled (`cancelEndingRun`). Other scripts are played as written.
 */
export function endingModel(): ModelProvider & { held(): boolean } {
  const scripts = new Map<Ending, ScriptedModel>();
  let held = false;
  return {
    name: 'scripted',
    held: () => held,
    async complete(request, signal, hooks) {
      const first = request.messages[0];
      const text = first?.content.map((b) => ('text' in b ? b.text : '')).join('') ?? '';
      const ending = ENDINGS.find((e) => text.includes(`[ending:${e}]`));
      if (!ending) throw new Error(`no ending in task ${text.slice(0, 80)}`);
      if (ending === 'error')
        throw ApplicationFailure.create({
          type: FailureType.ModelAuthentication,
          message: ENDING_ERROR,
          nonRetryable: true,
        });
      if (ending === 'cancelled') {
        held = true;
        return new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener('abort', () => reject(signal.reason));
        });
      }
      const script = scripts.get(ending) ?? scriptOf(ending);
      scripts.set(ending, script);
      return script.complete(request, signal, hooks);
    },
  };
}
