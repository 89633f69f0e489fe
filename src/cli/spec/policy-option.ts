import { AgentClient } from '../../client/agent-client';
import { visibilityPolicyFromEnv, type LoadedPolicy } from '../../governance/load-visibility-policy';
import { VisibilityPolicyError } from '../../governance/visibility-policy-error';
import type { CommandLine, OptionSpec } from './command-line';
import { UsageError } from './usage-error';

/** `--policy FILE`: the visibility policy a reading command applies (else THOUGHTLINE_VISIBILITY_POLICY). */
export const POLICY_OPTION = {
  policy: {
    type: 'string',
    value: 'FILE',
    help: 'read through this visibility policy; one that cannot be read exits 2 (docs/people-in-the-loop.md)',
    env: 'THOUGHTLINE_VISIBILITY_POLICY',
  },
} as const satisfies Record<string, OptionSpec>;

/**
 * The policy `--policy` or THOUGHTLINE_VISIBILITY_POLICY names, read before the command does
 * anything; undefined when neither names one. One that cannot be read is a usage error (exit 2)
 * with the loader's reason: the command never runs without the policy it was given.
 */
export async function readPolicyOption(line: CommandLine): Promise<LoadedPolicy | undefined> {
  try {
    return await visibilityPolicyFromEnv(process.env, line.text('policy'));
  } catch (error) {
    if (error instanceof VisibilityPolicyError) throw new UsageError(error.message);
    throw error;
  }
}

/** The same client, reading through `policy` (itself when there is none). */
export function withPolicy(agents: AgentClient, policy: LoadedPolicy | undefined): AgentClient {
  if (!policy) return agents;
  return new AgentClient({
    client: agents.client,
    taskQueue: agents.taskQueue,
    ...(agents.server ? { server: agents.server } : {}),
    ...(agents.store ? { store: agents.store } : {}),
    visibilityPolicy: policy,
  });
}
