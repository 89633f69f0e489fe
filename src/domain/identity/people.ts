import { z } from 'zod';
import { DecisionSignatureField } from '../approval/signed-decision';

/** Who started a run, for role checks and tenant limits. Carried in the input; never a secret. */
export const CallerContext = z.object({
  id: z.string().min(1),
  roles: z.array(z.string().min(1)).default([]),
  tenant: z.string().min(1).optional(),
});
export type CallerContext = z.infer<typeof CallerContext>;

/** The roles a signed answer or instruction carries next to `by` (bounded, like every payload). */
const SignerRoles = z.array(z.string().min(1).max(200)).max(100);

/** Who decides, answers or steers: an id and the roles they hold. */
export const Person = z.object({
  id: z.string().min(1),
  roles: z.array(z.string().min(1)).default([]),
});
export type Person = z.infer<typeof Person>;

/** The role views that the `chain` query, the CLI and exports apply. */
export const ViewerRole = z.enum(['end_user', 'developer', 'auditor']);
export type ViewerRole = z.infer<typeof ViewerRole>;

/** A person's instruction waiting to join the conversation before the next thought. */
export const SteeringInstruction = z.object({
  text: z.string(),
  by: z.string().optional(),
  /** The signer's roles, covered by `signature`. */
  roles: SignerRoles.optional(),
  /** Drawn by the server for each signed instruction, so no two are alike and a replay is refused. */
  nonce: z.string().min(1).max(200).optional(),
  /** The server's signature; required by runs with `signedDecisions`. */
  signature: DecisionSignatureField.optional(),
});
export type SteeringInstruction = z.infer<typeof SteeringInstruction>;

/** A person's answer to the question the agent asked (the `answer` update). */
export const AnswerRequest = z.object({
  text: z.string(),
  by: z.string().min(1),
  /** The question's call id: checked when given; a signed answer must name it (signed-decision.ts). */
  callId: z.string().optional(),
  /** The signer's roles, covered by `signature`. */
  roles: SignerRoles.optional(),
  /** The server's signature; required by runs with `signedDecisions`. */
  signature: DecisionSignatureField.optional(),
});
export type AnswerRequest = z.infer<typeof AnswerRequest>;
