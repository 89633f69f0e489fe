import path from 'node:path';
import type { ToolDefinition } from '../tools/define-tool';

const isTool = (value: unknown): value is ToolDefinition =>
  typeof value === 'object' && value !== null &&
  typeof (value as ToolDefinition).name === 'string' &&
  typeof (value as ToolDefinition).execute === 'function' &&
  typeof (value as ToolDefinition).input?.safeParse === 'function';

/**
 * Loads tools for the CLI's worker from a JS module whose `tools` (or default) export is an array
 * of `defineTool(...)` results, so users can serve their own tools without writing a worker.
 */
export function loadToolsModule(modulePath: string): ToolDefinition[] {
  const resolved = path.resolve(modulePath);
  const loaded = require(resolved) as { tools?: unknown; default?: unknown };
  const tools = loaded.tools ?? loaded.default;
  if (!Array.isArray(tools) || !tools.every(isTool)) {
    throw new Error(`${resolved} must export "tools": an array of defineTool(...) results.`);
  }
  return tools;
}
