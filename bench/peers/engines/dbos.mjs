// DBOS Transact peer (npm run bench:peers): the loop as a DBOS workflow of model and tool steps,
// checkpointed to a PostgreSQL system database made fresh for this invocation.
// Contract: engines/README.md. loop, state and concurrent run the DBOS app in this process, as
// a DBOS app is a library inside its own process; recover runs it in child processes.
import './dbos/stdout-guard.mjs';
import { main, versionOf } from './lib/engine-io.mjs';
import { concurrent, loop, state } from './dbos/in-process.mjs';
import { recover } from './dbos/recover.mjs';

const version = versionOf('@dbos-inc/dbos-sdk');
const tagged = (scenario) => async (request) => ({ engine: 'dbos', version, ...(await scenario(request)) });

await main({ loop: tagged(loop), state: tagged(state), recover: tagged(recover), concurrent: tagged(concurrent) });
