// Builds the workflow and step bundles with the Workflow SDK's own builder, as its framework
// integration guide says to for a runtime without a framework plugin: extend BaseBuilder and
// write flow.js, step.js and webhook.js (the three /.well-known/workflow/v1 routes).
// Run as `node builder.mjs` with the output folder as the working directory: the SWC plugin
// caches under the cwd and the builder writes a .gitignore in its working dir, so both stay in
// the (gitignored, temporary) output folder and never in the source tree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseBuilder } from '@workflow/builders';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCES = [path.join(here, 'workflows', 'agent-loop.mjs')];

class BenchBuilder extends BaseBuilder {
  async build() {
    const inputFiles = SOURCES;
    const out = (name) => this.resolvePath(`.well-known/workflow/v1/${name}`);
    await this.ensureDirectory(out('step.js'));
    const steps = await this.createStepsBundle({ outfile: out('step.js'), inputFiles });
    const flows = await this.createWorkflowsBundle({ outfile: out('flow.js'), inputFiles });
    await this.createWebhookBundle({ outfile: out('webhook.js') });
    await this.createManifest({
      workflowBundlePath: out('flow.js'),
      manifestDir: this.resolvePath('.well-known/workflow/v1'),
      manifest: {
        steps: { ...steps.manifest.steps, ...flows.manifest.steps },
        workflows: { ...steps.manifest.workflows, ...flows.manifest.workflows },
        classes: {},
      },
    });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await new BenchBuilder({
    buildTarget: 'standalone',
    dirs: [],
    workingDir: process.cwd(),
    projectRoot: here,
    suppressCreateManifestLogs: true,
  }).build();
}
