/** JSON text of a value for an approval reason, cut to 120 characters; control characters stay escaped. */
export function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
