import { z } from 'zod';
import type { ModelChoice, ToolSpec } from '../domain';
import { InvalidToolDefinitionError, type ToolDefinition } from './define-tool';

export interface ToolRegistry {
  get(name: string): ToolDefinition | undefined;
  /** Specs of every tool, or of the named ones; throws on a name that is not registered. */
  specs(names?: readonly string[]): ToolSpec[];
}

/** JSON Schema the model sees, made from the zod input schema (input side: defaults are optional). */
export function toolInputSchema(input: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { io: 'input' }) as Record<string, unknown>;
  return schema;
}

export function toToolSpec(tool: ToolDefinition): ToolSpec {
  return {
    name: tool.name,
    type: tool.type,
    description: tool.description,
    inputSchema: toolInputSchema(tool.input),
    timeoutMs: tool.timeoutMs,
    retry: tool.retry,
    visibility: tool.visibility,
    readOnly: tool.effects === 'none',
    effects: tool.effects,
    ...(tool.maxResultChars ? { maxResultChars: tool.maxResultChars } : {}),
    ...(tool.local ? { local: true } : {}),
    // Only what differs from the defaults, so specs (and recorded histories) stay small.
    ...(tool.approval !== 'never' ? { approval: tool.approval } : {}),
    ...(tool.approverRoles.length ? { approverRoles: [...tool.approverRoles] } : {}),
    ...(tool.requiredRoles.length ? { requiredRoles: [...tool.requiredRoles] } : {}),
    ...(tool.sensitiveFields.length ? { sensitiveFields: [...tool.sensitiveFields] } : {}),
    ...(tool.summaryTemplate ? { summaryTemplate: tool.summaryTemplate } : {}),
    ...(tool.returns ? { returns: tool.returns } : {}),
    ...(tool.auditLevel !== 'full' ? { auditLevel: tool.auditLevel } : {}),
    ...(tool.alternatives.length ? { alternatives: [...tool.alternatives] } : {}),
    ...(tool.validate ? { validates: true } : {}),
    ...(tool.reconcile ? { reconciles: true } : {}),
    ...(modelChoicesOf(tool).length > 0 ? { modelChoices: modelChoicesOf(tool) } : {}),
  };
}

/** The models a tool offers by name (ask_model's), with tier and price: the workflow routes by them. */
export function modelChoicesOf(tool: ToolDefinition): ModelChoice[] {
  return (tool.models ?? []).flatMap(({ alias, model, tier, price }) =>
    alias === undefined ? [] : [{ alias, model, ...(tier ? { tier } : {}), ...(price ? { price } : {}) }],
  );
}

export function createToolRegistry(tools: readonly ToolDefinition[]): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new InvalidToolDefinitionError(`Tool "${tool.name}" is registered twice.`);
    byName.set(tool.name, tool);
  }
  // Made once: the schemas never change while the worker runs.
  const specs = new Map([...byName].map(([name, tool]) => [name, toToolSpec(tool)]));
  return {
    get: (name) => byName.get(name),
    specs(names) {
      if (!names) return [...specs.values()];
      return names.map((name) => {
        const spec = specs.get(name);
        if (!spec) throw new UnknownToolError(name, [...specs.keys()]);
        return spec;
      });
    },
  };
}

export class UnknownToolError extends Error {
  override readonly name = 'UnknownToolError';
  constructor(
    readonly toolName: string,
    readonly known: string[],
  ) {
    super(`Tool "${toolName}" is not registered on this worker. Registered: ${known.join(', ') || '(none)'}.`);
  }
}
