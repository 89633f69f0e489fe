import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { AgentClient } from '../../../src/client/agent-client';
import { createAgentWorker, WORKFLOW_BUNDLER_OPTIONS, WORKFLOWS_PATH } from '../../../src/worker';
import { quietLogger } from '../../lib/bench-context';
import { loopModel, loopTool, type LoopSettings } from './thoughtline-loop';

/** Where the engine finds Temporal, from the runner's request. */
export interface TemporalInfra {
  address: string;
  namespace: string;
  /** A workflow bundle the runner made once; without it the engine bundles its own. */
  bundlePath?: string;
}

/** Quiet worker logs (warnings still show) and no shutdown signals: the runner kills what it must. */
export function installQuietRuntime(): void {
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    shutdownSignals: [],
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'WARN' } } },
  });
}

export async function bundlePathFor(infra: TemporalInfra, workDir: string): Promise<string> {
  if (infra.bundlePath) return infra.bundlePath;
  fs.mkdirSync(workDir, { recursive: true });
  const file = path.join(workDir, `thoughtline-bundle-${process.pid}.js`);
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...WORKFLOW_BUNDLER_OPTIONS,
    logger: quietLogger,
  });
  fs.writeFileSync(file, code);
  return file;
}

/** An agent worker serving the loop's model and tool on `taskQueue`, SDK default options. */
export async function loopWorker(
  infra: TemporalInfra,
  bundlePath: string,
  taskQueue: string,
  settings: LoopSettings,
): Promise<{ worker: Worker; close(): Promise<void> }> {
  const connection = await NativeConnection.connect({ address: infra.address });
  const worker = await createAgentWorker({
    connection,
    namespace: infra.namespace,
    taskQueue,
    tools: [loopTool(settings)],
    models: { scripted: loopModel(settings) },
    workflowBundle: { codePath: bundlePath },
    workerOptions: {},
  });
  return { worker, close: () => connection.close() };
}

export async function loopClient(
  infra: TemporalInfra,
  taskQueue: string,
): Promise<{ agents: AgentClient; client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect({ address: infra.address });
  const client = new Client({ connection, namespace: infra.namespace });
  return { agents: new AgentClient({ client, taskQueue }), client, close: () => connection.close() };
}
