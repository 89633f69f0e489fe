// @temporalio/ai-sdk peer: the Vercel AI SDK's generateText loop inside a Temporal workflow, with
// the plugin's model activity over the AI SDK's mock model and the instant tool as an activity.
// Worker and client live in this process and use the dev server the runner passes.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AiSdkPlugin } from '@temporalio/ai-sdk';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createScriptedProvider, scriptedModelId } from './ai-sdk-scripted-provider.mjs';
import { finalAnswer, runInstantTool } from './instant-tool.mjs';
import { log, measureRuns } from './measure-runs.mjs';
import { packageVersion } from './package-version.mjs';
import { parsePeerArgs } from './peer-args.mjs';

const args = parsePeerArgs();
if (!args.address) throw new Error('--address host:port of the Temporal dev server is required');
const taskQueue = `bench-peer-ai-sdk-${randomUUID()}`;

const workerConnection = await NativeConnection.connect({ address: args.address });
const worker = await Worker.create({
  connection: workerConnection,
  namespace: args.namespace,
  taskQueue,
  workflowsPath: fileURLToPath(new URL('./temporal-ai-sdk-workflow.mjs', import.meta.url)),
  activities: { lookup: runInstantTool },
  plugins: [new AiSdkPlugin({ modelProvider: createScriptedProvider() })],
});
const connection = await Connection.connect({ address: args.address });
const client = new Client({ connection, namespace: args.namespace });

async function runOnce(iterations, label) {
  const result = await client.workflow.execute('aiSdkAgent', {
    taskQueue,
    workflowId: `bench-ai-sdk-${label}-${randomUUID()}`,
    args: [{ prompt: `benchmark ${label}`, iterations, modelId: scriptedModelId }],
  });
  if (result.text !== finalAnswer || result.steps !== iterations + 1) {
    throw new Error(`unexpected run result ${JSON.stringify(result)}`);
  }
}

log(`temporal-ai-sdk: ${args.runs} runs x ${args.iterations} iterations on ${args.address}, queue ${taskQueue}`);
await worker.runUntil(
  measureRuns({
    name: 'temporal-ai-sdk',
    version: `@temporalio/ai-sdk ${packageVersion('@temporalio/ai-sdk')}, ai ${packageVersion('ai')}`,
    iterations: args.iterations,
    runs: args.runs,
    runOnce,
  }),
);
await connection.close();
await workerConnection.close();
