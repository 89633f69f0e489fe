import { z } from 'zod';
import {
  ElicitationRequest,
  MAX_ELICITATION_MESSAGE_CHARS,
  McpTaskRef,
  type ToolInvocation,
  type ToolSpec,
} from '../../domain';
import type { ToolDefinition } from '../../tools/define-tool';
import type { ToolRegistry } from '../../tools/tool-registry';
import type { Redactor } from '../../tools/redact-secrets';
import type { McpCallOutcome, McpTools } from './mcp-tools';

/** Arguments were checked in the workflow against the server's own schema, and the server checks them again. */
const ANY_ARGUMENTS = z.record(z.string(), z.unknown());

/** The `runTool` activity's view of one MCP tool: parse nothing more, call the server. */
export function mcpTool(mcp: McpTools, call: ToolInvocation): Pick<ToolDefinition, 'name' | 'input' | 'execute'> {
  return {
    name: call.toolName,
    input: ANY_ARGUMENTS,
    execute: async (_args, context) => {
      const outcome = await mcp.call(call, {
        signal: context.signal,
        heartbeat: () => context.heartbeat(),
        progress: (update) => context.progress(update),
      });
      return marked(outcome);
    },
  };
}

/** An MCP outcome as a tool's value: a request for input or a task is marked, a result is itself. */
export function marked(outcome: McpCallOutcome): unknown {
  if ('needsInput' in outcome) return { [NEEDS_INPUT]: outcome.needsInput };
  if ('parked' in outcome) return { [PARKED]: outcome.parked };
  return outcome.result;
}

/** Marks a call the server answered with a task; a symbol, like NEEDS_INPUT. */
const PARKED = Symbol('parked');

export function isParked(value: unknown): value is { [PARKED]: McpTaskRef } {
  return value !== null && typeof value === 'object' && PARKED in value;
}

export function parkedOn(value: { [PARKED]: McpTaskRef }, redact: Redactor): McpTaskRef {
  const ref = value[PARKED];
  return McpTaskRef.parse(
    ref.statusMessage ? { ...ref, statusMessage: String(redact(ref.statusMessage)).slice(0, 500) } : ref,
  );
}

/** Marks a call that ended to ask a person; a symbol, so no tool result can pretend to be one. */
const NEEDS_INPUT = Symbol('needsInput');

export function isNeedsInput(value: unknown): value is { [NEEDS_INPUT]: ElicitationRequest } {
  return value !== null && typeof value === 'object' && NEEDS_INPUT in value;
}

export function neededInput(value: { [NEEDS_INPUT]: ElicitationRequest }, redact: Redactor): ElicitationRequest {
  const request = value[NEEDS_INPUT];
  // The server's words go into the run's history like a tool result: redacted the same way.
  const message = String(redact(request.message)).slice(0, MAX_ELICITATION_MESSAGE_CHARS);
  return ElicitationRequest.parse({ ...request, message });
}

/** The worker's own tools and the MCP servers' tools, in the order the run names them. */
export async function describeWithMcp(
  tools: ToolRegistry,
  mcp: McpTools,
  names: readonly string[] | undefined,
): Promise<ToolSpec[]> {
  if (!names) return [...tools.specs(), ...(await mcp.allSpecs())];
  const fromMcp = names.filter((n) => !tools.get(n) && mcp.owns(n));
  const resolved = fromMcp.length ? await mcp.resolve(fromMcp) : [];
  const byName = new Map(fromMcp.map((name, i) => [name, resolved[i]!]));
  return names.flatMap((name) => byName.get(name) ?? tools.specs([name]));
}
