// LangGraph.js with its PostgreSQL checkpointer: a StateGraph ReAct agent (agent and tools
// nodes, a checkpoint per super-step via PostgresSaver), one thread per run, on a fresh
// database per invocation. The contract is in ./README.md; the pieces are in ./langgraph/.
import { main, versionOf } from './lib/engine-io.mjs';
import { concurrentScenario } from './langgraph/concurrent.mjs';
import { loopScenario } from './langgraph/loop.mjs';
import { recoverScenario } from './langgraph/recover.mjs';
import { stateScenario } from './langgraph/state.mjs';
import { withDatabase } from './langgraph/with-database.mjs';

const engine = 'langgraph-pg';
const version = ['@langchain/langgraph', '@langchain/langgraph-checkpoint-postgres', 'pg'].map(versionOf).join(', ');

const scenario = (run) => async (request) => ({
  engine,
  version,
  ...(await withDatabase(request, (database) => run(request, database))),
});

await main({
  loop: scenario(loopScenario),
  state: scenario(stateScenario),
  recover: scenario(recoverScenario),
  concurrent: scenario(concurrentScenario),
});
