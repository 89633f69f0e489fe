import path from 'node:path';
import type { EngineSpec } from './engine-process';
import type { SideBySideInfra } from './infra/start-infra';
import type { EngineName } from './side-by-side-config';
import { benchStackTraces } from '../lib/bench-context';

const TITLES: Record<EngineName, string> = {
  thoughtline: 'Thoughtline',
  'temporal-bare': 'Temporal SDK (bare)',
  'temporal-ai-sdk': '@temporalio/ai-sdk',
  'temporal-openai-agents': '@temporalio/openai-agents',
  'vercel-workflow': 'Vercel Workflow (local world)',
  dbos: 'DBOS (PostgreSQL)',
  restate: 'Restate',
  'langgraph-pg': 'LangGraph.js (PostgresSaver)',
};

/** Where each engine's script is and which servers count with it. */
export function engineSpec(
  name: EngineName,
  projectRoot: string,
  peersDir: string,
  infra: SideBySideInfra,
): EngineSpec {
  const temporalPids = (): number[] => (infra.temporalPid ? [infra.temporalPid] : []);
  const postgresPids = (): number[] => (infra.postgres ? [infra.postgres.pid] : []);
  const restatePids = (): number[] => (infra.restate ? [infra.restate.pid] : []);
  const peer = (infraPids: () => number[], temporal = false): EngineSpec => ({
    name,
    title: TITLES[name],
    script: path.join(peersDir, 'engines', `${name}.mjs`),
    cwd: peersDir,
    infraPids,
    temporal,
  });
  switch (name) {
    case 'thoughtline':
      return {
        name,
        title: benchStackTraces() ? TITLES[name] : `${TITLES[name]} (workflowStackTraces: false)`,
        script: path.join(
          projectRoot,
          '.thoughtline',
          'bench-dist',
          'bench',
          'side-by-side',
          'engines',
          'thoughtline.js',
        ),
        cwd: peersDir,
        infraPids: temporalPids,
        temporal: true,
      };
    case 'temporal-bare':
    case 'temporal-ai-sdk':
    case 'temporal-openai-agents':
      return peer(temporalPids, true);
    case 'dbos':
    case 'langgraph-pg':
      return peer(postgresPids);
    case 'restate':
      return peer(restatePids);
    case 'vercel-workflow':
      return {
        ...peer(() => []),
        longRunCap: {
          iterations: 55,
          why: 'the local world replays the whole event log at every step and, past 1,000 events, reads it from disk in pages of 20: a 500-iteration run had gaps of 8 s by step 328 and did not finish in 12 minutes',
        },
        concurrentCap: {
          runs: 100,
          why: 'the local world is for development (its docs): 1,000 runs at once had not finished after 15 minutes',
        },
      };
  }
}
