import { ToolError } from '../tool-error';

/** A refusal the model must change its call for: final, never retried. */
export const refuse = (message: string): ToolError => new ToolError(message, { retryable: false });
