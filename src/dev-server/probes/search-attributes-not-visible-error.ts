/**
 * Search attributes were registered, but within the wait the server did not list them all
 * (`listed` false), or listed them while its frontend still refused queries on them (`listed`
 * true: its namespace cache had not refreshed). A run setting them would fail to start.
 * `cause` is the last error the list call gave, if any.
 */
export class SearchAttributesNotVisibleError extends Error {
  override readonly name = 'SearchAttributesNotVisibleError';

  constructor(
    readonly namespace: string,
    readonly missing: readonly string[],
    readonly listed: boolean,
    readonly waitedMs: number,
    options: { cause?: unknown } = {},
  ) {
    const after = `${(waitedMs / 1000).toFixed(1)} s after they were registered`;
    super(
      listed
        ? `namespace '${namespace}' lists the search attributes ${missing.join(', ')}, but its frontend still refuses them ${after} ` +
            '(it applies them when its namespace cache refreshes, every 10 s by default); try again in a moment'
        : `namespace '${namespace}' still does not list the search attributes ${missing.join(', ')} ${after}; ` +
            `check them with "temporal operator search-attribute list --namespace ${namespace}" and try again`,
      options,
    );
  }
}
