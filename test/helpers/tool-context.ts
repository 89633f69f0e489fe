import type { ToolContext } from '../../src/tools/define-tool';

/** The context a worker passes to `execute`, for calling a tool directly; `over` replaces its parts. */
export function toolContext(over: Partial<ToolContext> = {}): ToolContext {
  return {
    idempotencyKey: 'wf-1/step-1',
    signal: new AbortController().signal,
    heartbeat: () => undefined,
    narrowVisibility: () => undefined,
    progress: () => undefined,
    ...over,
  };
}
