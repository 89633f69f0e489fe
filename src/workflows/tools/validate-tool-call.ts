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
      schema = compiledSchema(spec.inputSchema);
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

/** Compiled input schemas kept at most, shared by the runs of a workflow thread. */
export const MAX_COMPILED_SCHEMAS = 256;

/**
 * Validators compiled from tool input schemas, by the schema's JSON, the latest used last. Every run
 * of a tool set would otherwise compile the same schemas again (a third of a millisecond a run on
 * the bench's one tool). Module state, shared by the runs a workflow thread holds, and still
 * deterministic: a validator depends only on its schema, and zod's lazily filled fields (the
 * memoizer) are the same whichever run fills them.
 */
const compiled = new Map<string, z.ZodType>();

export function compiledSchema(inputSchema: unknown): z.ZodType {
  const key = JSON.stringify(inputSchema);
  let schema = compiled.get(key);
  if (schema) compiled.delete(key);
  else schema = z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  compiled.set(key, schema);
  for (const oldest of compiled.keys()) {
    if (compiled.size <= MAX_COMPILED_SCHEMAS) break;
    compiled.delete(oldest);
  }
  return schema;
}

/** How many compiled schemas are kept (for the bound's test). */
export const compiledSchemaCount = (): number => compiled.size;
