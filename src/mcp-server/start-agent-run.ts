import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import type { Identity } from '../server/auth/identity';
import type { CatalogAgent } from '../server/catalog/agent-catalog';
import { protocolRunInput } from '../server/protocols/protocol-run-input';
import { thrownText } from '../tools/redact-secrets';
import { AgentToolInput, issueText } from './agent-tool-input';
import type { FollowDeps } from './follow-run';
import { errorContent } from './run-result-content';
import { NoWorkerError } from '../client/follow/no-worker-error';
import { startServedRun } from '../client/follow/served-start';

/** What an MCP client's user is told to start when no worker serves the runs. */
const WORKER_FIX =
  'Start one in another terminal (thoughtline worker [--tools FILE]), or restart the MCP server with --with-worker.';

/**
 * Starts a run of a catalogue agent for `identity` from an agent tool's arguments: checked and
 * bounded first (a refusal is an error result naming the field), the caller from authentication
 * only, questions allowed (they reach the client as elicitations).
 */
export async function startAgentRun(
  deps: FollowDeps,
  identity: Identity,
  agent: CatalogAgent,
  args: unknown,
): Promise<{ runId: string } | { refused: CallToolResult }> {
  const parsed = AgentToolInput.safeParse(args ?? {});
  if (!parsed.success) return { refused: errorContent(`Bad arguments for ${agent.name}: ${issueText(parsed.error)}`) };
  const { task, context } = parsed.data;
  const input = protocolRunInput(deps.ctx, identity, agent, task, {
    allowQuestions: true,
    ...(context ? { context: { data: context } } : {}),
  });
  try {
    const handle = await startServedRun(deps.ctx.agents, () => deps.ctx.agents.start(input), WORKER_FIX);
    return { runId: handle.workflowId };
  } catch (err) {
    if (err instanceof NoWorkerError) return { refused: errorContent(err.message) };
    if (err instanceof ZodError) return { refused: errorContent(`The run was refused: ${issueText(err)}`) };
    deps.log(`mcp-server: starting ${agent.name} failed: ${thrownText(err)}`);
    return { refused: errorContent(`The run of ${agent.name} could not be started now; try again.`) };
  }
}
