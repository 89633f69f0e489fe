import { loadMcpConfig } from '../../activities/mcp/load-mcp-config';
import { visibilityPolicyFromEnv, VisibilityPolicyError, type LoadedPolicy } from '../../governance';
import type { CommandSpec } from '../command-line';
import { loadAgentsModule, loadToolsModule } from '../load-tools-module';
import { connectOrStart, log, startWorker } from '../runtime';
import { UsageError } from '../usage-error';
import { standingDeployment, versionLine, type Versioning } from './serve';
import { untilSignal } from './until-signal';

const flag = { type: 'boolean' } as const;
const text = { type: 'string' } as const;

/**
 * The visibility policy a command names (`--policy FILE`, else THOUGHTLINE_VISIBILITY_POLICY), or
 * undefined. One that cannot be read is a usage error (exit 2): the process refuses to start
 * rather than show more than the policy allows.
 */
export async function commandPolicy(file: string | undefined): Promise<LoadedPolicy | undefined> {
  try {
    return await visibilityPolicyFromEnv(process.env, file);
  } catch (err) {
    if (err instanceof VisibilityPolicyError) throw new UsageError(err.message);
    throw err;
  }
}

/** `worker`: polls the task queue until Ctrl-C or SIGTERM, then drains and exits. */
export async function worker(
  toolsModule?: string,
  mcpFile?: string,
  versioning: Versioning = {},
  policyFile?: string,
): Promise<void> {
  // Read first: a bad config file or policy is reported before anything starts.
  const policy = await commandPolicy(policyFile);
  const mcp = mcpFile ? await loadMcpConfig(mcpFile) : undefined;
  const connected = await connectOrStart();
  const deployment = standingDeployment(connected.config.deploymentName, versioning);
  const agents = toolsModule ? loadAgentsModule(toolsModule) : [];
  const running = await startWorker(connected, toolsModule ? loadToolsModule(toolsModule) : [], {
    agents,
    ...(mcp ? { mcp } : {}),
    ...(deployment ? { deployment } : {}),
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
  args: [],
  options: { tools: text, mcp: text, unversioned: flag, 'keep-current': flag, policy: text },
  run: async (l) => {
    await worker(
      l.text('tools'),
      l.text('mcp'),
      { unversioned: l.flag('unversioned'), keepCurrent: l.flag('keep-current') },
      l.text('policy'),
    );
    return 0;
  },
};
