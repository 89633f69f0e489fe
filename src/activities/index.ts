import { createAgentActivities } from '../agents/agent-activities';
import { createAgentRegistry, type AgentRegistry } from '../agents/agent-registry';
import type { ToolRegistry } from '../tools/tool-registry';
import type { McpTools } from './mcp/mcp-tools';
import { createChainArchiveActivities } from './chain-archive-activity';
import { createEvalActivities } from './eval/score-run';
import { createMemoryActivities } from './memory/memory-activities';
import type { ScorerDefinition } from '../eval/define-scorer';
import { ConversationCache } from './conversation/conversation-cache';
import { KnownTexts } from './conversation/known-texts';
import {
  createModelActivities,
  DEFAULT_CONVERSATION_CACHE_BYTES,
  knownTextChars,
  type ModelActivityDeps,
} from './model-activities';
import { createRedactor } from '../tools/redact-secrets';
import type { TenantActivities } from './tenant-activities';
import { createToolActivities, type ToolActivityDeps } from './tool-activities';
import { createPlanCacheActivities } from './cache/plan-cache-activities';
import { createA2aActivities } from './a2a/a2a-activities';
import { createMcpTaskActivities } from './mcp/mcp-task-activities';
import type { A2aSettings } from './a2a/a2a-settings';
import { createGuardrailActivities } from '../guardrails/guardrail-activities';
import type { GuardrailDefinition } from '../guardrails/define-guardrail';

export interface ActivityDeps extends ModelActivityDeps {
  tools: ToolRegistry;
  /** MCP servers whose tools the worker offers as `<server>__<tool>`. */
  mcp?: McpTools;
  /** Values that must never appear in a tool result or error (API keys and the like). */
  secrets?: readonly string[];
  /** Agents runs may start by name (`agent`); default none. */
  agents?: AgentRegistry;
  /** Scorers evaluation cases may name (the `scoreRun` activity); default none. */
  scorers?: readonly ScorerDefinition[];
  /** Guardrails runs and agent definitions may name, by name (one per name); default none. */
  guardrails?: ReadonlyMap<string, GuardrailDefinition>;
  /** Remote A2A agents sub-agent definitions may name (`a2a`); default none, so every one is refused. */
  a2a?: A2aSettings;
  /** Receives tools' `ctx.progress(...)` updates, bounded and redacted (never stored in history). */
  onToolProgress?: ToolActivityDeps['onToolProgress'];
}

/** Every activity of an agent worker. Workflows import this file as a type only. */
export function createActivities(deps: ActivityDeps) {
  const redact = createRedactor(deps.secrets ?? []);
  // The tools keep their results' texts where the model calls look for the texts they name.
  const given = deps.conversations ?? { cache: new ConversationCache(DEFAULT_CONVERSATION_CACHE_BYTES) };
  const conversations = {
    ...given,
    texts: given.texts ?? new KnownTexts(knownTextChars(DEFAULT_CONVERSATION_CACHE_BYTES)),
  };
  const toolActivities = createToolActivities({
    tools: deps.tools,
    redact,
    texts: conversations.texts,
    ...(deps.mcp ? { mcp: deps.mcp } : {}),
    ...(deps.isModelAllowed ? { isModelAllowed: deps.isModelAllowed } : {}),
    ...(deps.cache ? { cache: deps.cache } : {}),
    ...(deps.onToolProgress ? { onToolProgress: deps.onToolProgress } : {}),
  });
  return {
    ...createModelActivities({ ...deps, redact, conversations, describeTools: toolActivities.describeTools }),
    ...toolActivities,
    ...createMcpTaskActivities({ redact, texts: conversations.texts, ...(deps.mcp ? { mcp: deps.mcp } : {}) }),
    ...createAgentActivities({
      agents: deps.agents ?? createAgentRegistry([]),
      describeTools: toolActivities.describeTools,
    }),
    ...createChainArchiveActivities(),
    ...createPlanCacheActivities(deps.cache),
    ...createEvalActivities({
      models: deps.models,
      ...(deps.endpoints ? { endpoints: deps.endpoints } : {}),
      ...(deps.isModelAllowed ? { isModelAllowed: deps.isModelAllowed } : {}),
      ...(deps.scorers ? { scorers: deps.scorers } : {}),
      redact,
    }),
    ...createMemoryActivities(),
    ...createA2aActivities({ redact, ...(deps.a2a ? { settings: deps.a2a } : {}) }),
    ...createGuardrailActivities(deps.guardrails ?? new Map()),
  };
}

/** Agent activities plus the tenant quota's (every agent worker registers both; see createAgentWorker). */
export type AgentActivities = ReturnType<typeof createActivities> & TenantActivities;
export type { ModelProvider } from '../domain/model/model-provider';
