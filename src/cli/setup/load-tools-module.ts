import path from 'node:path';
import type { AgentDefinitionInit } from '../../domain/agents/agent-definition';
import { defineGuardrail, type GuardrailDefinition } from '../../guardrails/define-guardrail';
import { defineTool, type ToolDefinition } from '../../tools/define-tool';

const isTool = (value: unknown): value is ToolDefinition =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ToolDefinition).name === 'string' &&
  typeof (value as ToolDefinition).execute === 'function' &&
  typeof (value as ToolDefinition).input?.safeParse === 'function';

/**
 * Loads tools for the CLI's worker from a JS module whose `tools` (or default) export is an array
 * of `defineTool(...)` results, so users can serve their own tools without writing a worker.
 * Every tool goes through defineTool again, so a plain object gets the same checks and defaults
 * (a write-like tool needs approval) as one made with it.
 */
export function loadToolsModule(modulePath: string): ToolDefinition[] {
  const resolved = path.resolve(modulePath);
  const loaded = require(resolved) as { tools?: unknown; default?: unknown };
  const tools = loaded.tools ?? loaded.default;
  // A module may define agents only.
  if (tools === undefined && (loaded as { agents?: unknown }).agents !== undefined) return [];
  if (!Array.isArray(tools) || !tools.every(isTool)) {
    throw new Error(`${resolved} must export "tools": an array of defineTool(...) results.`);
  }
  return tools.map((tool) =>
    defineTool({
      ...tool,
      retry: { ...tool.retry },
      approverRoles: [...(tool.approverRoles ?? [])],
      requiredRoles: [...(tool.requiredRoles ?? [])],
      sensitiveFields: [...(tool.sensitiveFields ?? [])],
    }),
  );
}

/**
 * The agents the same module defines, as its `agents` export (an array of `defineAgent(...)`
 * results), for the CLI's worker to register: runs then start them by name (`run --agent`).
 * None when the module has no such export; the worker checks each definition again.
 */
export function loadAgentsModule(modulePath: string): AgentDefinitionInit[] {
  const resolved = path.resolve(modulePath);
  const { agents } = require(resolved) as { agents?: unknown };
  if (agents === undefined) return [];
  if (!Array.isArray(agents))
    throw new Error(`${resolved} exports "agents" that is not an array of defineAgent(...) results.`);
  return agents as AgentDefinitionInit[];
}

/**
 * The guardrails the same module defines, as its `guardrails` export (an array of
 * `defineGuardrail(...)` results), for the CLI's worker to register: runs and agent definitions
 * name them (docs/guardrails.md). None when the module has no such export; each is checked here.
 */
export function loadGuardrailsModule(modulePath: string): GuardrailDefinition[] {
  const resolved = path.resolve(modulePath);
  const { guardrails } = require(resolved) as { guardrails?: unknown };
  if (guardrails === undefined) return [];
  if (!Array.isArray(guardrails))
    throw new Error(`${resolved} exports "guardrails" that is not an array of defineGuardrail(...) results.`);
  return (guardrails as GuardrailDefinition[]).map((g) => defineGuardrail(g));
}
