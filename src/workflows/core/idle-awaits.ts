import { patched } from '@temporalio/workflow';

/**
 * Marks histories whose iterations skip the `await`s that wait for nothing in the usual case (a
 * tenant lease when none is needed, task updates and approvals when the turn has none). The SDK
 * takes a stack trace for every promise a workflow makes, so each skipped layer is CPU saved on
 * every workflow task and every replay. Skipping one changes the order of microtasks, and so
 * possibly of commands when something else acts in the same activation (a cancel arriving with a
 * reply): histories recorded before keep every layer.
 */
export const SKIP_IDLE_AWAITS_PATCH = 'skip-idle-awaits';

/** Whether this run skips awaits that wait for nothing (see SKIP_IDLE_AWAITS_PATCH). */
export function skipsIdleAwaits(): boolean {
  return patched(SKIP_IDLE_AWAITS_PATCH);
}

/**
 * Marks histories whose iterations await the model and tool activities with fewer layers: the
 * model turn awaits its call in one function instead of three, the tool call awaits its activity
 * itself, the loop awaits the tool turn without a wrapper, and a run without a plan does not await
 * its reflection. About ten promises fewer an iteration (24 before), each one a stack trace the
 * SDK takes. Like SKIP_IDLE_AWAITS_PATCH, this changes the order of microtasks: histories recorded
 * before keep every layer.
 */
export const FLAT_AWAITS_PATCH = 'flat-awaits';

/** Whether this run awaits its activities with fewer layers (see FLAT_AWAITS_PATCH). */
export function flatAwaits(): boolean {
  return patched(FLAT_AWAITS_PATCH);
}
