/**
 * The peers' tool: instant, side-effect free, a small fixed result. Every peer calls it with the
 * same name and input so only the framework around the loop differs.
 */
export const instantTool = Object.freeze({
  name: 'lookup',
  description: 'Looks up a fixed fact. Instant.',
  input: Object.freeze({ query: 'benchmark' }),
});

export async function runInstantTool(_input) {
  return { ok: true, value: 42 };
}

/** The model's final answer once it has seen every tool result it asked for. */
export const finalAnswer = 'Done: the value is 42.';
