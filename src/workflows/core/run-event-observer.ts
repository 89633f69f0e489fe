import type { RunEvent } from '../../shared/run-event';
import type { ChainChange, ChainObserver, ChainPosition } from './chain-observer';

type EndOutcome = Extract<RunEvent, { type: 'end' }>['outcome'];

export interface RunEventObserver {
  /** Give this to the ChainBuilder. */
  observe: ChainObserver;
  /** The run's last event: passes on what is pending, then `end`. */
  end(outcome: EndOutcome, at: ChainPosition): void;
}

/**
 * Turns chain changes into RunEvents, in the order they happened. Steps wait for `defer` (a
 * microtask in the workflow) so that a tag added in the same turn (a parallel group) travels
 * with the step; any other change passes the waiting steps on first. Pure: `publish` and `defer`
 * are injected.
 */
export function createRunEventObserver(runId: string, publish: (event: RunEvent) => void, defer: (flush: () => void) => void): RunEventObserver {
  let pending: Array<{ step: Extract<ChainChange, { kind: 'step' }>['step']; at: ChainPosition }> = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const steps = pending;
    pending = [];
    for (const { step, at } of steps) publish({ type: 'step', runId, chainStatus: at.status, stepNumber: step.stepNumber, step });
  };
  const observe: ChainObserver = (change, at) => {
    switch (change.kind) {
      case 'step':
        pending.push({ step: change.step, at });
        if (!scheduled) {
          scheduled = true;
          defer(flush);
        }
        return;
      case 'step_amended':
        // Already passed on: the durable chain has the tag; a second event would be a duplicate.
        pending = pending.map((p) => (p.step.stepNumber === change.step.stepNumber ? { ...p, step: change.step } : p));
        return;
      case 'status':
        flush();
        return publish({ type: 'status', runId, chainStatus: at.status, stepNumber: at.stepNumber });
      case 'approval':
        flush();
        return publish({ type: 'approval', runId, chainStatus: at.status, stepNumber: at.stepNumber, approval: change.approval });
      case 'sub_agent':
        flush();
        return publish({ type: 'sub_agent', runId, chainStatus: at.status, stepNumber: at.stepNumber, subAgent: change.subAgent });
      default: {
        const unreachable: never = change;
        throw new Error(`Unhandled chain change ${JSON.stringify(unreachable)}`);
      }
    }
  };
  return {
    observe,
    end(outcome, at) {
      flush();
      publish({ type: 'end', runId, chainStatus: at.status, stepNumber: at.stepNumber, outcome });
    },
  };
}
