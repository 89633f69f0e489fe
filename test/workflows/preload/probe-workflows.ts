// A test bundle: a probe that looks, from inside a run, at what the preloaded modules share.
import * as chainModule from '../../../src/shared/chain';
import { AgentInput } from '../../../src/shared/agent-input';

export interface ProbeReport {
  exportsFrozen: boolean;
  sawBefore: unknown;
  writeRefused: boolean;
  inputParsed: boolean;
  badInputRefused: boolean;
  stepParsed: boolean;
}

/** What one run sees of a preloaded module, and whether it could leave anything for the next. */
export async function preloadProbe(tag: string): Promise<ProbeReport> {
  const shared = chainModule as unknown as Record<string, unknown>;
  const sawBefore = shared['probeTag'];
  let writeRefused = false;
  try {
    shared['probeTag'] = tag;
  } catch {
    writeRefused = true;
  }
  // The shared schemas parse and refuse as they do unshared, in the first run and in later ones.
  const input = AgentInput.safeParse({ task: tag, model: { provider: 'scripted', model: 'm' } });
  const bad = AgentInput.safeParse({ task: 42 });
  const step = chainModule.ReasoningStep.safeParse({ type: 'thinking', stepId: tag, stepNumber: 1, timestamp: 't', iteration: 0, thought: tag, visibility: { level: 'full' } });
  return {
    exportsFrozen: Object.isFrozen(chainModule),
    sawBefore,
    writeRefused,
    inputParsed: input.success && input.data.task === tag,
    badInputRefused: !bad.success,
    stepParsed: step.success,
  };
}
