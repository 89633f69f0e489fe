import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../server/api-error';
import type { ApiContext } from '../server/api-route';
import type { Identity } from '../server/auth/identity';
import { viewedStatus } from '../server/protocols/viewed-status';
import { GetRunInput, issueText } from './agent-tool-input';
import { endedContent } from './follow-run';
import { MAX_RUN_ID_CHARS } from './mcp-limits';
import { errorContent, statusContent } from './run-result-content';

const URI_PREFIX = 'thoughtline://runs/';

/** The run id a `thoughtline://runs/{runId}` URI names; undefined for any other URI. */
export function runIdOfUri(uri: string): string | undefined {
  if (!uri.startsWith(URI_PREFIX) || uri.length > URI_PREFIX.length + 3 * MAX_RUN_ID_CHARS) return undefined;
  try {
    const id = decodeURIComponent(uri.slice(URI_PREFIX.length));
    return id.length > 0 && id.length <= MAX_RUN_ID_CHARS && !id.includes('/') ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `get_run`: a run the caller may reach, by id (another tenant's is "not found", as an unknown
 * one): its status while it runs, its ending once it ended (resultContent). One read, never a wait.
 */
export async function getRun(ctx: ApiContext, identity: Identity, args: unknown): Promise<CallToolResult> {
  const parsed = GetRunInput.safeParse(args ?? {});
  if (!parsed.success) return errorContent(`Bad arguments for get_run: ${issueText(parsed.error)}`);
  const { runId } = parsed.data;
  try {
    const facts = await ctx.accessRun(identity, runId);
    if (facts.state !== 'running' && facts.state !== 'continued')
      return await endedContent(ctx, identity, runId, facts);
    return statusContent(runId, await viewedStatus(ctx, identity, facts));
  } catch (err) {
    if (err instanceof ApiError) return errorContent(err.message);
    throw err;
  }
}
