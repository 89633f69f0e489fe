// The recover scenario's worker process: `node worker-process.mjs '<spec JSON>'`, the spec being
// createWorker's argument. It polls until SIGKILLed or SIGTERMed (Worker.run shuts down on SIGTERM).
import { createWorker } from './worker.mjs';

const spec = JSON.parse(process.argv[2]);
const { worker, connection } = await createWorker(spec);
process.stderr.write(`worker ${process.pid} polling ${spec.taskQueue}\n`);
await worker.run();
await connection.close();
