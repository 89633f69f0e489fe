import type { BundlerPlugin, Logger, WorkerPlugin } from '@temporalio/worker';

/**
 * The workflow bundler's logger without its INFO: webpack's report of every bundled module (and
 * "Workflow bundle created") printed at each worker start. Warnings and errors (a failed build,
 * a disallowed module) still go to `to`: the Runtime's logger, or the console.
 */
export function quietBundlerLogger(to: Pick<Logger, 'warn' | 'error'> = console): Logger {
  const quiet = (): void => {};
  return {
    log: (level, message, meta) =>
      level === 'WARN' ? to.warn(message, meta) : level === 'ERROR' ? to.error(message, meta) : undefined,
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: (message, meta) => to.warn(message, meta),
    error: (message, meta) => to.error(message, meta),
  };
}

/**
 * A worker plugin that bundles the workflows quietly when Worker.create bundles them (no
 * `workflowBundle` given): the bundler's own logger is swapped for quietBundlerLogger over it.
 */
export const QUIET_BUNDLER: WorkerPlugin & BundlerPlugin = {
  name: 'thoughtline-quiet-bundler',
  configureBundler: (options) => ({ ...options, logger: quietBundlerLogger(options.logger) }),
};
