import { z } from 'zod';
import type { ToolSpec, ToolUseBlock } from '../../domain';
import type { ValidCall } from '../core/model-exchange';
import { withAlternatives } from './alternatives';

export type ToolCallCheck =
  | ({ ok: true } & ValidCall)
  /** `spec` is set when the tool exists but its arguments are invalid. */
  | { ok: false; observation: string; spec?: ToolSpec };

/**
 * Checks a model's tool call against the run's tool specs before any activity is scheduled.
 * A failure is an observation for the model, listing the valid tools, never an exception.
 * `controlTools` are the injected ones (core/injected-tools.ts), named in that list too.
 */
export function createToolCallValidator(specs: readonly ToolSpec[], controlTools: readonly string[]) {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const schemas = new Map<string, z.ZodType>();
  const schemaOf = (spec: ToolSpec): z.ZodType => {
    let schema = schemas.get(spec.name);
    if (!schema) {
      schema = z.fromJSONSchema(spec.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
      schemas.set(spec.name, schema);
    }
    return schema;
  };
  const validNames = [...byName.keys(), ...controlTools].join(', ');

  return (call: ToolUseBlock): ToolCallCheck => {
    const spec = byName.get(call.name);
    if (!spec) {
      return { ok: false, observation: `Error: unknown tool "${call.name}". Valid tools: ${validNames}.` };
    }
    const parsed = schemaOf(spec).safeParse(call.input);
    if (!parsed.success) {
      const problems = z.prettifyError(parsed.error);
      const observation = withAlternatives(
        spec,
        `Error: invalid arguments for tool "${call.name}":\n${problems}\n` +
          `Expected input schema: ${JSON.stringify(spec.inputSchema)}`,
      );
      return { ok: false, observation, spec };
    }
    return { ok: true, spec, args: parsed.data as Record<string, unknown> };
  };
}
