/**
 * The Web UI's "Current Details", rendered only when read, and again only after a change. The
 * SDK answers the Web UI's metadata query by turning the details into JSON, which calls their
 * `toJSON`: a run no one opens renders nothing. Rendering after every workflow task cost about a
 * tenth of a replay's CPU (an evicted query's), since each fresh workflow redacted every step
 * again. Rendering makes no command, so when it happens never affects replay.
 * test/workflows/loop/agent-workflow checks that the Web UI still gets the markdown. Pure.
 */
export function detailsWhenRead(render: () => string): { details: { toJSON(): string }; changed(): void } {
  let text: string | undefined;
  const details = {
    toJSON: (): string => {
      try {
        text ??= render();
        return text;
      } catch (err) {
        // A read must not fail the query, nor show an error's text (it may quote the chain): the
        // next read tries again.
        return `The run's details could not be shown (${err instanceof Error ? err.name : 'error'}); the chain query still answers.`;
      }
    },
  };
  return {
    details,
    changed: () => {
      text = undefined;
    },
  };
}
