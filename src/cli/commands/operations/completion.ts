import type { CommandSpec } from '../../spec/command-line';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from '../../spec/completion-script';
import { UsageError } from '../../spec/usage-error';

/**
 * `completion bash|zsh`, written from the command table it is given (the index passes its own, so
 * this file does not import the index it is listed in).
 */
export function completionCommand(commands: () => readonly CommandSpec[]): CommandSpec {
  return {
    name: 'completion',
    group: 'Operations',
    summary: 'a bash or zsh completion script for thoughtline',
    description:
      "Print a shell completion script: commands, and each command's options, from the same table that parses them.",
    usage: ['completion bash|zsh'],
    examples: ['thoughtline completion bash', 'thoughtline completion zsh'],
    args: [{ name: '<shell>', needs: 'a shell: bash or zsh, e.g. thoughtline completion bash' }],
    options: {},
    run: async (l) => {
      const shell = l.args[0]!;
      if (!(COMPLETION_SHELLS as readonly string[]).includes(shell))
        throw new UsageError(`completion takes ${COMPLETION_SHELLS.join(' or ')}, not "${shell}".`);
      process.stdout.write(completionScript(shell as CompletionShell, commands()));
      return 0;
    },
  };
}
