/**
 * A name made of ASCII letters, digits, `-`, `.` and `_`, starting with a letter, at most
 * `maxChars`: provider names, score names. A loop over characters, not a RegExp, so it is safe in
 * the workflow sandbox (a module-level RegExp's `lastIndex` cannot be frozen).
 */
export function isIdentifierName(name: string, maxChars: number): boolean {
  if (name.length === 0 || name.length > maxChars) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    const other = (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 95;
    if (!(letter || (i > 0 && other))) return false;
  }
  return true;
}
