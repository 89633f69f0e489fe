import fs from 'node:fs';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenFile } from '../../src/server/auth/token-file';
import { startMcpFront, type McpFront } from '../doors/mcp-front';
import { ACCOUNT, sensitiveTools, sensitiveTurns } from '../helpers/sensitive-answer-run';
import { createHarness, useTestEnv, type AgentHarness } from '../helpers/temporal-env';
import { eventually, routedModel } from '../server/server-harness';

/**
 * DESIGN.md, "Identity per request": an MCP HTTP session belongs to the person who opened it, and
 * each of its requests runs with the roles that person holds now. An auditor opens a session and
 * reads a run with a sensitive value; the operator demotes them in the token file; the same
 * session's next read shows the end user's view (it kept the auditor's before). The tool marks the
 * account number sensitive; no tenant policy here, so only that value tells the views apart.
 */
const env = useTestEnv();
const model = routedModel();
let h: AgentHarness;
let running: Promise<void>;
let front: McpFront;

beforeAll(async () => {
  h = await createHarness(env, { tools: sensitiveTools(), models: { anthropic: model } });
  running = h.worker.run();
  front = await startMcpFront(h.agents, 'session-roles', { who: 'auditor' });
}, 60_000);
afterAll(async () => {
  await front?.close();
  h?.worker.shutdown();
  await running;
});

function demoteAuditor(): void {
  const file = TokenFile.parse(JSON.parse(fs.readFileSync(front.tokenFile, 'utf8')));
  const tokens = file.tokens.map((entry) => (entry.id === 'auditor' ? { ...entry, roles: [] } : entry));
  fs.writeFileSync(`${front.tokenFile}.tmp`, JSON.stringify({ tokens }), { mode: 0o600 });
  fs.renameSync(`${front.tokenFile}.tmp`, front.tokenFile);
}

describe('an MCP HTTP session', () => {
  it(
    'reads with the roles its person holds at each request, not those it opened with',
    { timeout: 90_000 },
    async () => {
      model.script('session-roles', sensitiveTurns());
      const started = await front.client.callTool(
        { name: 'agent', arguments: { task: 'session-roles: whose account?' } },
        CallToolResultSchema,
        { timeout: 60_000 },
      );
      const runId = (started.structuredContent as { runId: string }).runId;
      const read = () => front.client.callTool({ name: 'get_run', arguments: { runId } }, CallToolResultSchema);
      expect(JSON.stringify((await read()).content)).toContain(ACCOUNT);

      demoteAuditor();
      const demoted = await eventually('the demoted view', async () => {
        const got = await read();
        return JSON.stringify(got.content).includes(ACCOUNT) ? undefined : got;
      });
      expect(JSON.stringify(demoted.content)).toContain('belongs to');
    },
  );
});
