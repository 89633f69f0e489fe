import { z } from 'zod';
import { ScheduleName, ScheduleRecord } from '../../client/schedules/schedule-spec';

export { ScheduleInit as CreateScheduleBody, ScheduleRecord } from '../../client/schedules/schedule-spec';

export const ScheduleNameParams = z.strictObject({ name: ScheduleName });

/**
 * `POST /v1/schedules`'s answer: the schedule, and a warning when this server cannot know whether
 * any worker registers its agent (no `--agents`/`--tools` module, see AgentCatalog.declared).
 */
export const CreatedScheduleResponse = ScheduleRecord.extend({ warning: z.string().optional() });

export const ScheduleListResponse = z.object({ schedules: z.array(ScheduleRecord) });

export const PauseScheduleBody = z.strictObject({
  /** Why, shown with the schedule; default "paused by <you>". */
  note: z.string().max(500).optional(),
});

export const DeletedScheduleResponse = z.object({ deleted: z.string() });
