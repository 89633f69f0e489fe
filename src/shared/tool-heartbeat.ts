/**
 * How long a tool call (an ordinary activity; local tools cannot heartbeat) may go without a
 * heartbeat before Temporal fails the attempt and retries it, on another worker if its own died.
 * A worker killed mid-call is so noticed within 5 s whatever the tool's `timeoutMs`, and the call
 * goes on elsewhere after the tool's retry interval (1 s by default).
 */
export const TOOL_HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * How often runTool heartbeats while a tool works. Every heartbeat sent is a billable action on
 * Temporal Cloud: at half the timeout, a call shorter than 2.5 s sends none and a long one 24 a
 * minute, and a worker whose event loop stalls has 2.5 s in hand before a false timeout.
 */
export const TOOL_HEARTBEAT_EVERY_MS = TOOL_HEARTBEAT_TIMEOUT_MS / 2;
