import { z } from 'zod';

/** Longest elicitation message a run records; a longer one is cut by the activity before it leaves. */
export const MAX_ELICITATION_MESSAGE_CHARS = 2_000;
/** Largest requested schema (as JSON) a run records; a larger one is refused as a bad request. */
export const MAX_ELICITATION_SCHEMA_CHARS = 8_000;
/** Most answers one tool call carries: each round of asking adds one. */
export const MAX_ELICITATION_ROUNDS = 5;

/**
 * An MCP server asked for input in the middle of a tool call. The activity ends the call and
 * returns this instead of a result; the workflow asks a person (durably, like `ask_person`) and
 * runs the call again with the answer. `key` identifies the question (a hash of the server, the
 * message and the schema), so the repeated request on the re-run is answered at once.
 */
export const ElicitationRequest = z.object({
  key: z.string().min(1).max(128),
  server: z.string(),
  tool: z.string(),
  message: z.string().max(MAX_ELICITATION_MESSAGE_CHARS),
  /** MCP's restricted JSON schema: a flat object of string, number, integer, boolean and enum fields. */
  requestedSchema: z.record(z.string(), z.unknown()),
  /** Why the last answer was not accepted (it did not fit the schema), for the person asked again. */
  problem: z.string().max(1_000).optional(),
});
export type ElicitationRequest = z.infer<typeof ElicitationRequest>;

export const ElicitationContent = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
);
export type ElicitationContent = z.infer<typeof ElicitationContent>;

/** A person's answer to one ElicitationRequest, matched by `key`; what the server receives is `action` and `content`. */
export const ElicitationAnswer = z.object({
  key: z.string().min(1).max(128),
  action: z.enum(['accept', 'decline', 'cancel']),
  content: ElicitationContent.optional(),
  /** Who answered (from the `answer` update), for the chain; never sent to the server. */
  by: z.string(),
});
export type ElicitationAnswer = z.infer<typeof ElicitationAnswer>;
