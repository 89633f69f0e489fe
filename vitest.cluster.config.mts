import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the files that matter on a production-like cluster (scripts/test-cluster.sh
 * starts one and sets THOUGHTLINE_TEST_TEMPORAL_ADDRESS; global-setup then uses it): runs,
 * approvals, sub-agents, continue-as-new (long chains, the tenant quota), visibility
 * lists, export and fork, serve, worker versioning, a new namespace's search attributes, the
 * cluster's own smoke test, the chaos scenario (test/cluster/production-chaos.test.ts: workers and
 * serve instances killed, the Temporal server and PostgreSQL restarted, under load), and the CLI,
 * serve and the library on a second cluster started with --mtls (THOUGHTLINE_TEST_MTLS_*, read by
 * test/helpers/secured-frontend.ts and test/cluster/mtls-cluster.test.ts).
 */
export default defineConfig({
  test: {
    include: [
      'test/cluster/**/*.test.ts',
      'test/workflows/loop/agent-workflow.test.ts',
      'test/workflows/people/approvals.test.ts',
      'test/workflows/delegation/sub-agents.test.ts',
      'test/workflows/delegation/sub-agent-approvals.test.ts',
      'test/workflows/run/chain-segments.test.ts',
      'test/workflows/run/fork-and-audit.test.ts',
      'test/workflows/tenant-quota/tenant-quota.test.ts',
      'test/client/search-attributes-setup.test.ts',
      'test/server/api-runs.test.ts',
      'test/server/cli-serve.test.ts',
      'test/e2e/cli.test.ts',
      'test/e2e/cli-approve.test.ts',
      'test/e2e/cli-audit-fork.test.ts',
      'test/deployment/versioning.test.ts',
      'test/connection/secured-cluster.test.ts',
    ],
    pool: 'forks',
    // Two files at a time, as the default suite on two cores: most of a file's time is waiting on the server.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
