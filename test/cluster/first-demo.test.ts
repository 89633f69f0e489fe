import { describe, expect, it } from 'vitest';
import { DEMO_TASK } from '../../src/cli/commands/run-and-watch/demo';
import { pollFor } from '../helpers/approval-helpers';
import { cliEnv, runCli } from '../helpers/cli-process';
import { freshNamespace } from '../helpers/fresh-namespace';
import { useTestEnv } from '../helpers/temporal-env';

const env = useTestEnv();

describe('the first demo on a fresh cluster namespace', () => {
  // Issue 45's defect: on a cluster, the first `thoughtline demo` on a new namespace failed with
  // only "Failed to start Workflow": the search attributes it had just registered were not yet
  // visible to the server's start. The demo now waits for them (or retries the start).
  it('registers the search attributes, runs the weather agent to its answer and lists it by its final status', async () => {
    const namespace = await freshNamespace(env.client, 'first-demo');
    const out = await runCli(['demo'], cliEnv({ TEMPORAL_NAMESPACE: namespace }));
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`task: ${DEMO_TASK}`);
    expect(out.stdout).toMatch(/Final answer: .*San Francisco.*Paris|Final answer: .*Paris.*San Francisco/s);
    expect(out.stderr).not.toContain('Failed to start');
    // Listed by a Thoughtline attribute in the new namespace: a finished run's status is its
    // ending's reason. Visibility lags a little.
    const listed = await pollFor('the demo run listed by ThoughtlineStatus', async () => {
      const { count } = await env.client.connection.workflowService.countWorkflowExecutions({
        namespace,
        query: `ThoughtlineStatus = 'success'`,
      });
      return Number(count) > 0 ? Number(count) : undefined;
    });
    expect(listed).toBe(1);
  }, 180_000);
});
