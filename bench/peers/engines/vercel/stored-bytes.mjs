// What the local world keeps on disk for one run: every file under its data directory whose
// name is the run's (runs/<id>.json) or starts with it (events/<id>-evnt_*.json,
// steps/<id>-step_*.json, lock files, streams), summed by folder.
import fs from 'node:fs';
import path from 'node:path';

/** @returns {{ bytes: number, stored: string }} */
export function storedBytesOf(dataDir, runId) {
  const byFolder = new Map();
  let files = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.startsWith(runId)) {
        const folder = path.relative(dataDir, dir) || '.';
        const [count, bytes] = byFolder.get(folder) ?? [0, 0];
        byFolder.set(folder, [count + 1, bytes + fs.statSync(full).size]);
        files += 1;
      }
    }
  };
  walk(dataDir);
  const bytes = [...byFolder.values()].reduce((sum, [, b]) => sum + b, 0);
  const parts = [...byFolder].map(([folder, [count, b]]) => `${folder}: ${count} files, ${b} B`).join('; ');
  return {
    bytes,
    stored: `local world JSON files named by the run under its data directory, file sizes summed (${files} files; ${parts}); the events are the run's event log, runs/steps the materialised run and step records`,
  };
}
