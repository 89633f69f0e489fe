/**
 * Preloaded once per V8 context by the workflow bundle (PRELOAD_MODULES in worker.ts) and shared
 * by every run in it: every module the workflows load but their entry (workflows/index.ts, which
 * the SDK loads for each run). Without this each run would evaluate them again in its own module
 * scope: ~1,100 zod schema objects and a closure for every function, most of a cached run's
 * memory and part of every start.
 *
 * Sharing is safe because no module here keeps a run's state at module level. The pure ones (no
 * @temporalio/workflow, directly or below) hold schemas, tables and functions. The ones that use
 * the SDK declare messages and activity proxies at module level and call the SDK only from
 * functions; the SDK finds the current run on each call, which is how its own modules are shared
 * already (the bundle loads them before any run exists). What a run needs of its own (its state,
 * handlers, inboxes) runAgent makes for it and passes along.
 *
 * The sandbox deep-freezes what it preloads, but zod rewrites a schema's internals on its first
 * parse, which a frozen schema refuses. So each module's exports are frozen here instead (the
 * sandbox skips what is frozen): nothing can replace an export, and the plain data they hold
 * (tables, templates, lists, message definitions) is frozen all the way down; zod schemas, regular
 * expressions, functions, classes and the SDK's proxies are left as they are. The few module-level
 * values that change are the same for every run: a memo keyed by each run's own steps
 * (chain-view), the SQL parsers made on first use (approval-sql-rule), and regular expressions
 * reset before each use.
 * The list itself is workflow-modules.generated.ts, written by scripts/generate-preload-list.cjs
 * from the bundle's own module graph at every build. test/workflows/preload checks that a run can
 * leave nothing behind and that a shared module's SDK calls act on the run that makes them;
 * test/unit/workflows/preload-list checks that the list is the bundle's graph, and that no module
 * in it keeps mutable state at module level.
 */
import { WORKFLOW_MODULES } from './workflow-modules.generated';

/** Plain data all the way down (objects and arrays of the Object and Array prototypes); anything else is left as it is. */
function freezePlainData(value: unknown, seen = new WeakSet<object>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return;
  seen.add(value);
  for (const inner of Object.values(value)) freezePlainData(inner, seen);
  Object.freeze(value);
}

for (const moduleExports of WORKFLOW_MODULES) {
  for (const value of Object.values(moduleExports)) freezePlainData(value);
  Object.freeze(moduleExports);
}
