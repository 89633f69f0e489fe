import type { RunEvent } from '../../../domain/run/run-event';
import type { ChainChange, ChainObserver, ChainPosition } from './chain-observer';

type EndOutcome = Extract<RunEvent, { type: 'end' }>['outcome'];

export interface RunEventObserver {
  /** Give this to the ChainBuilder. */
  observe: ChainObserver;
  /** The run's last event: passes on what is waiting, then `end`, at once. */
  end(outcome: EndOutcome, at: ChainPosition): void;
}

/** A change waiting to leave: a step is made into its event only then, so a later tag travels with it. */
type Waiting = { step: Extract<ChainChange, { kind: 'step' }>['step']; at: ChainPosition } | { event: RunEvent };

/**
 * Turns chain changes into RunEvents, in the order they happened, and passes them on together
 * when `defer` runs (once the workflow task's code has settled): one sink call a task instead of
 * one an event, because each call carries the run's whole workflow info across threads. A tag
 * added in the same turn (a parallel group) travels with its step. Pure: `publish` and `defer`
 * are injected.
 */
export function createRunEventObserver(
  runId: string,
  publish: (events: RunEvent[]) => void,
  defer: (flush: () => void) => void,
): RunEventObserver {
  let waiting: Waiting[] = [];
  const flush = (): void => {
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    publish(
      batch.map((w) =>
        'event' in w
          ? w.event
          : { type: 'step', runId, chainStatus: w.at.status, stepNumber: w.step.stepNumber, step: w.step },
      ),
    );
  };
  const wait = (w: Waiting): void => {
    waiting.push(w);
    // Pushed first: `defer` may run the flush at once (the first time, the SDK tries a condition eagerly).
    if (waiting.length === 1) defer(flush);
  };
  const observe: ChainObserver = (change, at) => {
    switch (change.kind) {
      case 'step':
        return wait({ step: change.step, at });
      case 'step_amended':
        // Not passed on yet: the waiting step takes the tag. Already passed on: the durable chain has it.
        waiting = waiting.map((w) =>
          'step' in w && w.step.stepNumber === change.step.stepNumber ? { ...w, step: change.step } : w,
        );
        return;
      case 'status':
        return wait({ event: { type: 'status', runId, chainStatus: at.status, stepNumber: at.stepNumber } });
      case 'approval':
        return wait({
          event: {
            type: 'approval',
            runId,
            chainStatus: at.status,
            stepNumber: at.stepNumber,
            approval: change.approval,
          },
        });
      case 'sub_agent':
        return wait({
          event: {
            type: 'sub_agent',
            runId,
            chainStatus: at.status,
            stepNumber: at.stepNumber,
            subAgent: change.subAgent,
          },
        });
      default: {
        const unreachable: never = change;
        throw new Error(`Unhandled chain change ${JSON.stringify(unreachable)}`);
      }
    }
  };
  return {
    observe,
    end(outcome, at) {
      // At once: the run returns or continues as new in this task, and nothing may wait behind it.
      waiting.push({ event: { type: 'end', runId, chainStatus: at.status, stepNumber: at.stepNumber, outcome } });
      flush();
    },
  };
}
