/** Default task queue of agent workers and clients (DESIGN.md). */
export const DEFAULT_TASK_QUEUE = 'thoughtline';
export const DEFAULT_NAMESPACE = 'default';
/** How long closed runs stay in a namespace the project sets up, unless configured: the reference designs' 90 days. */
export const DEFAULT_RETENTION_DAYS = 90;
export const DEFAULT_FINISH_TOOL = 'finish';
export const DEFAULT_GIVE_UP_TOOL = 'give_up';
export const DEFAULT_QUESTION_TOOL = 'ask_person';
