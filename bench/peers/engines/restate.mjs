// Restate peer: the ReAct loop as a Restate service handler, each model and tool call a
// `ctx.run` step journaled by restate-server; invoked through the ingress. See engines/README.md.
import { main } from './lib/engine-io.mjs';
import { loop } from './restate/loop.mjs';
import { state } from './restate/state.mjs';
import { recover } from './restate/recover.mjs';
import { concurrent } from './restate/concurrent.mjs';

await main({ loop, state, recover, concurrent });
