import type { ToolRegistry } from '../tools/tool-registry';
import type { McpTools } from './mcp/mcp-tools';
import { createModelActivities, type ModelActivityDeps } from './model-activities';
import { createRedactor } from './redact-secrets';
import type { TenantActivities } from './tenant-activities';
import { createToolActivities } from './tool-activities';

export interface ActivityDeps extends ModelActivityDeps {
  tools: ToolRegistry;
  /** MCP servers whose tools the worker offers as `<server>__<tool>`. */
  mcp?: McpTools;
  /** Values that must never appear in a tool result or error (API keys and the like). */
  secrets?: readonly string[];
}

/** Every activity of an agent worker. Workflows import this file as a type only. */
export function createActivities(deps: ActivityDeps) {
  const redact = createRedactor(deps.secrets ?? []);
  return {
    ...createModelActivities({ ...deps, redact }),
    ...createToolActivities({ tools: deps.tools, redact, ...(deps.mcp ? { mcp: deps.mcp } : {}) }),
  };
}

/** Agent activities plus the tenant quota's (every agent worker registers both; see createAgentWorker). */
export type AgentActivities = ReturnType<typeof createActivities> & TenantActivities;
export type { ModelProvider } from './models/model-provider';
