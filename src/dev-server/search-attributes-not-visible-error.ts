/**
 * Search attributes were registered, but the server did not list them all within the wait: a run
 * setting them would fail to start. `cause` is the last error the list call gave, if any.
 */
export class SearchAttributesNotVisibleError extends Error {
  override readonly name = 'SearchAttributesNotVisibleError';

  constructor(
    readonly namespace: string,
    readonly missing: readonly string[],
    readonly waitedMs: number,
    options: { cause?: unknown } = {},
  ) {
    super(
      `namespace '${namespace}' still does not list the search attributes ${missing.join(', ')} ${(waitedMs / 1000).toFixed(1)} s ` +
        `after they were registered; check them with "temporal operator search-attribute list --namespace ${namespace}" and try again`,
      options,
    );
  }
}
