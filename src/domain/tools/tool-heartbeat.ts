/**
 * How long a tool call (an ordinary activity; local tools cannot heartbeat) may go without a
 * heartbeat before Temporal fails the attempt and retries it, on another worker if its own died.
 * A worker killed mid-call is so noticed within 5 s whatever the tool's `timeoutMs`, and the call
 * goes on elsewhere after the tool's retry interval (1 s by default).
 */
export const TOOL_HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * How often runTool heartbeats while a tool works. Every heartbeat sent is a billable action on
 * Temporal Cloud: a call shorter than 1 s sends none, a long one 60 a minute. The failover alone
 * would do with one every 2.5 s, but a cancel reaches a tool only in a heartbeat's answer, and a
 * cancelled run waits 1.5 s for its tools to stop (SETTLE_MS in run-agent.ts) before it calls
 * their outcome unknown. A worker whose event loop stalls has 4 s in hand before a false timeout.
 */
export const TOOL_HEARTBEAT_EVERY_MS = 1_000;
