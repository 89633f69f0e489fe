/**
 * Preloaded only when a worker turns workflow stack traces off (`workflowStackTraces: false`,
 * THOUGHTLINE_WORKFLOW_STACK_TRACES=off; NO_STACK_TRACES_MODULE in worker.ts). The SDK takes a
 * stack trace, mapped through the bundle's source map, of every promise workflow code makes, for
 * its stack-trace query (temporalio/sdk-typescript#1587): about an eighth of a run's CPU in the
 * workflow thread (docs/scale.md). With V8's frame limit at 0 none is taken; the query (the Web
 * UI's Stack Trace tab) then names no frame, nor does a workflow error's stack. Set here, in a
 * preloaded module, because the sandbox freezes its builtins right after preloading: workflow
 * code can never change the limit later, for good or ill.
 */
Error.stackTraceLimit = 0;

export {};
