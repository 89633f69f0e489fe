import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ThreadTurnReceipt, ThreadTurnRequest, ThreadView } from '../../domain/threads/thread-schemas';

/** A user turn: starts the turn's agent run (once per `turnId`) and returns it. Sent with update-with-start. */
export const threadTurnUpdate = defineUpdate<ThreadTurnReceipt, [ThreadTurnRequest]>('threadTurn');

/** The thread's kept turns and their runs. */
export const threadQuery = defineQuery<ThreadView>('thread');
