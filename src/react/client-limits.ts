/** Bounds of what the hooks keep in memory; the defaults are `DEFAULT_LIMITS`. */
export interface ClientLimits {
  /** Steps a run's feed keeps, the newest; older ones are dropped and counted (`droppedSteps`). */
  maxSteps: number;
  /** Largest event read from a stream, in characters; a larger one fails that stream. */
  maxEventChars: number;
  /** Streamed model text kept for the reply in progress (and per thread turn), in characters. */
  maxLiveTextChars: number;
}

export const DEFAULT_LIMITS: ClientLimits = {
  maxSteps: 2_000,
  maxEventChars: 4 * 1024 * 1024,
  maxLiveTextChars: 64 * 1024,
};
