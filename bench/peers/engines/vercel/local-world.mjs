// The local world's settings for one engine invocation, as environment variables (the local
// world's documented configuration): a fresh data directory under the runner's workDir, so no
// invocation sees another's runs, and the marks directory the step bodies write to.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** @returns {Record<string, string>} the variables, also set on this process. */
export function localWorldEnv(workDir, marksDir) {
  const dataDir = path.join(workDir, `vercel-workflow-data-${randomUUID()}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const env = {
    WORKFLOW_TARGET_WORLD: 'local',
    WORKFLOW_LOCAL_DATA_DIR: dataDir,
    ...(marksDir ? { BENCH_MARKS_DIR: marksDir } : {}),
  };
  Object.assign(process.env, env);
  if (!marksDir) delete process.env.BENCH_MARKS_DIR;
  return env;
}
