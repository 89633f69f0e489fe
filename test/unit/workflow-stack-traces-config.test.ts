import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { bundlerOptionsWith, NO_STACK_TRACES_MODULE, PRELOAD_MODULES } from '../../src/worker';

describe('THOUGHTLINE_WORKFLOW_STACK_TRACES', () => {
  it('is on unless set to off; any other value is refused, naming the variable', () => {
    expect(loadConfig({}).workflowStackTraces).toBe(true);
    expect(loadConfig({ THOUGHTLINE_WORKFLOW_STACK_TRACES: '' }).workflowStackTraces).toBe(true);
    expect(loadConfig({ THOUGHTLINE_WORKFLOW_STACK_TRACES: 'on' }).workflowStackTraces).toBe(true);
    expect(loadConfig({ THOUGHTLINE_WORKFLOW_STACK_TRACES: 'off' }).workflowStackTraces).toBe(false);
    expect(() => loadConfig({ THOUGHTLINE_WORKFLOW_STACK_TRACES: 'false' })).toThrow(
      /THOUGHTLINE_WORKFLOW_STACK_TRACES/,
    );
  });

  it('off, the bundle preloads the module that takes the frame limit to 0; on, it does not', () => {
    expect(bundlerOptionsWith().preloadModules).toEqual([...PRELOAD_MODULES]);
    expect(bundlerOptionsWith({ workflowStackTraces: true }).preloadModules).toEqual([...PRELOAD_MODULES]);
    expect(bundlerOptionsWith({ workflowStackTraces: false }).preloadModules).toEqual([
      ...PRELOAD_MODULES,
      NO_STACK_TRACES_MODULE,
    ]);
  });
});
