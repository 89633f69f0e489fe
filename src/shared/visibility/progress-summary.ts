import type { ReasoningChain } from '../chain';

/**
 * What an end user reads instead of the steps (seed 002, journey 5): "Checked 3 sources",
 * "Processed 247 records", joined as `text` ("Checked 3 sources · processed 247 records"). Made from
 * a chain as a view already shows it, so it counts only what that viewer may see. Pure.
 */
export interface ProgressSummary {
  lines: string[];
  text: string;
}

export function progressSummary(chain: ReasoningChain): ProgressSummary {
  void chain;
  return { lines: [], text: '' };
}
