/**
 * Every text the offline model writes starts with this, so nobody takes it for a real model's.
 * Its answers quote the tools' results and state no claim of their own: grounding checks none.
 */
export const OFFLINE_MARK = '[offline model]';
