// The agent's endpoint as its own process (the recover scenario kills it):
// `node endpoint-child.mjs '<{ serviceName, port, marksDir }>'`; tells the parent its port over IPC.
import { serveEndpoint } from './serve-endpoint.mjs';

const { serviceName, port, marksDir } = JSON.parse(process.argv[2]);
const bound = await serveEndpoint({ serviceName, port, marksDir });
process.send?.({ ready: true, port: bound });
// The parent's death must not leave this endpoint behind.
process.on('disconnect', () => process.exit(0));
