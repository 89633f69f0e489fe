/**
 * One screen redrawn in place on the terminal's alternate screen (the way `less` and `top` do),
 * so the shell's scrollback is left as it was and a resize never leaves half-erased frames.
 * The ~10 escape sequences are written here rather than pulled from a library: they are fixed
 * by ECMA-48/xterm and every terminal the CLI targets has them.
 */
const ENTER = '\x1b[?1049h\x1b[?25l\x1b[?7l'; // alternate screen, hide cursor, no line wrap
const LEAVE = '\x1b[?7h\x1b[?25h\x1b[?1049l'; // line wrap, show cursor, main screen
/** Row `row` (1-based), column 1, the row cleared: with wrap off, clearing after a full-width row would erase its last column. */
const ROW = (row: number): string => `\x1b[${row};1H\x1b[2K`;

export interface LiveScreen {
  /** Replaces the screen's contents with `lines` (already fitted to the terminal's `height` rows). */
  draw(lines: readonly string[], height: number): void;
  /** Back to the main screen with the cursor shown; idempotent, and run at process exit too. */
  leave(): void;
}

export function enterLiveScreen(out: NodeJS.WriteStream): LiveScreen {
  let open = true;
  const leave = (): void => {
    if (!open) return;
    open = false;
    process.off('exit', leave);
    out.write(LEAVE);
  };
  // A second Ctrl-C or an uncaught error ends the process through process.exit: the terminal is
  // still given back (a process killed by a signal it does not handle cannot do this).
  process.on('exit', leave);
  out.write(ENTER);
  return {
    draw(lines, height) {
      if (!open) return;
      // Each row placed and cleared; below the frame, whatever a taller frame or a stray log line left.
      const rows = lines.map((line, i) => `${ROW(i + 1)}${line}`);
      if (lines.length < height) rows.push(`\x1b[${lines.length + 1};1H\x1b[J`);
      out.write(rows.join(''));
    },
    leave,
  };
}
