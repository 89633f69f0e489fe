/** One reply of the offline model: a thought and the calls it makes (none: the thought is the answer). */
export interface Move {
  text: string;
  calls: Array<{ name: string; input: Record<string, unknown> }>;
}
