/** What stands in for a tool result the lens hides, in the messages a model call sent. */
export const HIDDEN_RESULT = '[hidden by the visibility policy]';

/**
 * What stands in for the model's thinking a view does not show whole: extended thinking, and a
 * model call's reply text, which is the thought the chain records (and hides) as a thinking step.
 */
export const HIDDEN_THINKING = '[thinking hidden by the visibility policy]';
