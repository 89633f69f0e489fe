import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { log } from '../lib/engine-io.mjs';
import { buildAgentGraph } from './agent-graph.mjs';

/** The checkpointer on the run's database (tables made by setup()) and the graph compiled on it. */
export async function openAgent(databaseUrl, request) {
  const checkpointer = PostgresSaver.fromConnString(databaseUrl);
  // pg pools emit idle clients' errors; unheard they crash the process. After end() the only
  // such error is the database drop ending a connection that is still closing.
  let closed = false;
  checkpointer.pool.on('error', (err) => closed || log(`langgraph-pg: idle pg client: ${err.message}`));
  await checkpointer.setup();
  return {
    graph: buildAgentGraph({ checkpointer, request }),
    close: () => ((closed = true), checkpointer.end()),
  };
}
