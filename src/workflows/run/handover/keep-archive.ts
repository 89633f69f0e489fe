import { CancellationScope, type LocalActivityOptions } from '@temporalio/workflow';
import type { ChainArchive } from '../../../domain';
import { jsonBytes, MAX_CARRIED_BYTES } from '../../../domain/run/payload-size';
import { localActivities } from '../../activity-proxies';
import { CARRY_LEVELS, shortenArchive } from './carry-over';

const KEEP_OPTIONS: Readonly<LocalActivityOptions> = {
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
};

/**
 * Records the steps a handover leaves behind as the result of a local activity (keepChainArchive),
 * once, in this run's history; true when it did. Shortened as a handover would carry them, at the
 * first level that fits a payload. Nothing here fails the run: when it does not fit, or the
 * activity fails (an older worker lacks it), the handover carries the archive in its input as before.
 */
export async function keepArchive(archive: ChainArchive, runId: string): Promise<boolean> {
  const fitting = fittingArchive(archive, runId);
  if (!fitting) return false;
  try {
    // Not cancellable: a cancel arriving now is for the run, which is past its loop and hands over.
    await CancellationScope.nonCancellable(() =>
      localActivities.keepChainArchive.executeWithOptions(KEEP_OPTIONS, [fitting]),
    );
    return true;
  } catch {
    return false;
  }
}

function fittingArchive(archive: ChainArchive, runId: string): ChainArchive | undefined {
  for (const level of CARRY_LEVELS) {
    const shortened = shortenArchive(archive, runId, level);
    if (jsonBytes(shortened) < MAX_CARRIED_BYTES) return shortened;
  }
  return undefined;
}
