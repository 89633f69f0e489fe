import path from 'node:path';
import { defineTool, type ToolDefinition } from '../tools/define-tool';

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
