import { loadA2aSettings } from '../../../activities/a2a/a2a-settings';
import { loadMcpConfig } from '../../../activities/mcp/load-mcp-config';
import type { CommandSpec } from '../../spec/command-line';
import { flag, text } from '../../spec/flags';
import { loadAgentsModule, loadGuardrailsModule, loadToolsModule } from '../../setup/load-tools-module';
import { connectOrStart, log } from '../../setup/runtime';
import { startStandingWorker, type Versioning } from '../../setup/standing-worker';
import type { LoadedPolicy } from '../../../governance';
import { POLICY_OPTION, readPolicyOption } from '../../spec/policy-option';
import { versionLine } from './dev';
import { untilSignal } from '../../setup/until-signal';

/** `worker`: polls the task queue until Ctrl-C or SIGTERM, then drains and exits. */
export async function worker(
  toolsModule?: string,
  mcpFile?: string,
  versioning: Versioning = {},
  policy?: LoadedPolicy,
  a2aFile?: string,
): Promise<void> {
  // Read first: a bad config file is reported before anything starts.
  const mcp = mcpFile ? await loadMcpConfig(mcpFile) : undefined;
  const a2a = a2aFile ? await loadA2aSettings(a2aFile) : undefined;
  const connected = await connectOrStart();
  const agents = toolsModule ? loadAgentsModule(toolsModule) : [];
  const running = await startStandingWorker(connected, toolsModule ? loadToolsModule(toolsModule) : [], {
    agents,
    guardrails: toolsModule ? loadGuardrailsModule(toolsModule) : [],
    versioning,
    ...(mcp ? { mcp } : {}),
    ...(a2a ? { a2a } : {}),
    ...(policy ? { policy } : {}),
  });
  const named = agents.map((a) => `${a.id} ${a.version}`).join(', ');
  log(
    `worker polling task queue "${connected.config.taskQueue}" on ${connected.server.address}, ${versionLine(running.worker, versioning.keepCurrent)}${named ? `; agents: ${named}` : ''}${policy ? `; visibility policy ${policy.path}` : ''}. Ctrl-C stops it.`,
  );
  await Promise.race([untilSignal(), running.done]);
  await running.shutdown();
}

export const WORKER_COMMAND: CommandSpec = {
  name: 'worker',
  group: 'Operations',
  summary: 'run an agent worker until Ctrl-C',
  description:
    "Run an agent worker until Ctrl-C. It declares a version (deployment THOUGHTLINE_DEPLOYMENT_NAME, default the task queue; build: the package version and its workflow code's hash) and makes it current: new runs come to it, open runs stay on theirs.",
  examples: ['thoughtline worker --tools ./my-tools.js', 'thoughtline worker --mcp mcp.json --keep-current'],
  args: [],
  options: {
    tools: text(
      'FILE',
      'a JS module exporting "tools" (defineTool results), "agents" (defineAgent results runs start by name) and "guardrails" (defineGuardrail results runs and agents name)',
    ),
    mcp: text(
      'FILE',
      'MCP servers, { "mcpServers": { ... } } as desktop clients write it; their tools are <server>__<tool>',
    ),
    a2a: text(
      'FILE',
      'remote A2A agents sub-agents may call, { "allow": [...], "auth": { ... } }; without it every one is refused',
    ),
    unversioned: flag('declare no worker version'),
    'keep-current': flag('declare the version without making it current'),
    ...POLICY_OPTION,
  },
  run: async (l) => {
    // A policy that cannot be read is a usage error (exit 2): the worker never starts without it.
    const policy = await readPolicyOption(l);
    await worker(
      l.text('tools'),
      l.text('mcp'),
      { unversioned: l.flag('unversioned'), keepCurrent: l.flag('keep-current') },
      policy,
      l.text('a2a'),
    );
    return 0;
  },
};
