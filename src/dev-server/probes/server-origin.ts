import fs from 'node:fs';
import { findListeningPid } from './find-listening-pid';
import { thoughtlinePaths } from '../project-paths';

/**
 * Who runs the server listening on `port`, in words for the line that says it is reused: this
 * checkout's dev server (its pid file names the listener), or another process, with its pid and
 * working directory when this machine shows them (Linux). Undefined when nothing can be told.
 */
export function serverOrigin(port: number, projectRoot: string): string | undefined {
  const pid = findListeningPid(port);
  if (pid === undefined) return undefined;
  let ours: number | undefined;
  try {
    ours = Number(fs.readFileSync(thoughtlinePaths(projectRoot, port).pidFile, 'utf8').trim());
  } catch {
    ours = undefined;
  }
  if (ours === pid) return 'started from this checkout';
  let cwd: string | undefined;
  try {
    cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    cwd = undefined;
  }
  return `not started from this checkout: pid ${pid}${cwd ? ` in ${cwd}` : ''}; its runs, and the workers polling it, are shared with whoever uses it`;
}
