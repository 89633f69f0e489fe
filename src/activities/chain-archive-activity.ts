import type { ChainArchive } from '../domain';

/**
 * The activity a handover runs, as a local activity, to record the steps it leaves behind: it
 * returns the archive it is given, so the archive is recorded once, as that activity's marker in
 * the run that leaves it. A continue-as-new input is recorded twice (as one run's last event and
 * the next run's first), so it no longer carries the archive. Readers: read-chain-archive.ts.
 */
export function createChainArchiveActivities() {
  return {
    async keepChainArchive(archive: ChainArchive): Promise<ChainArchive> {
      return archive;
    },
  };
}
