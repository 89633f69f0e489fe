import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../src/worker';

const quiet = { logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } };

describe('workflow bundle', () => {
  it('bundles src/workflows for the sandbox', async () => {
    const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, ...quiet });
    expect(code).toContain('agentWorkflow');
    expect(code).not.toMatch(/require\(["']@anthropic-ai\/sdk["']\)/);
  });

  it('refuses workflow code that imports a Node builtin (negative control)', async () => {
    // Inside the project, so the bundler resolves @temporalio/workflow as it would for real code.
    const scratch = path.resolve(__dirname, '../../.thoughtline/tmp');
    fs.mkdirSync(scratch, { recursive: true });
    const dir = fs.mkdtempSync(path.join(scratch, 'bad-wf-'));
    fs.writeFileSync(
      path.join(dir, 'index.ts'),
      "import fs from 'fs';\nexport async function bad() { return fs.existsSync('/'); }\n",
    );
    try {
      await expect(bundleWorkflowCode({ workflowsPath: path.join(dir, 'index.ts'), ...quiet })).rejects.toThrow(
        /importing the following disallowed modules[\s\S]*'fs'/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
