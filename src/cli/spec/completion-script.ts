import type { CommandSpec } from './command-line';

/** The shells `thoughtline completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

const optionNames = (c: CommandSpec): string[] => [...Object.keys(c.options), 'help'].map((o) => `--${o}`);

/** Bash: commands at the first word, then the options of the command typed, else file names. */
function bashScript(commands: readonly CommandSpec[]): string {
  const names = commands.map((c) => c.name).join(' ');
  // A command with commands under it (`eval add`) takes their options after their word.
  const subs = (c: CommandSpec): string =>
    c.subcommands?.length
      ? ` case "\${COMP_WORDS[2]}" in ${c.subcommands.map((sub) => `${sub.name.split(' ')[1]}) opts="${optionNames(sub).join(' ')}" ;;`).join(' ')} esac;`
      : '';
  const cases = commands.map((c) => `    ${c.name}) opts="${optionNames(c).join(' ')}";${subs(c)} ;;`).join('\n');
  return `# thoughtline completion for bash: add  eval "$(thoughtline completion bash)"  to ~/.bashrc
_thoughtline() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "help ${names} --help --version" -- "$cur") )
    return
  fi
  case "\${COMP_WORDS[1]}" in
    help) opts="${names}" ;;
${cases}
  esac
  if [[ "$cur" == -* || "\${COMP_WORDS[1]}" == help ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  fi
}
complete -o default -o bashdefault -F _thoughtline thoughtline
`;
}

/** A zsh description: one line, no quote or colon to break the array it sits in. */
const zshText = (text: string): string =>
  text.replace(/'/g, '’').replace(/:/g, '\\:').replace(/\s+/g, ' ').slice(0, 70);

/** Zsh: commands with their summaries, then each command's options with their help. */
function zshScript(commands: readonly CommandSpec[]): string {
  const entries = commands.map((c) => `    '${c.name}:${zshText(c.summary)}'`).join('\n');
  const opts = (c: CommandSpec): string =>
    [...Object.entries(c.options), ['help', { help: "this command's help" }] as const]
      .map(([name, o]) => `'--${name}:${zshText(o.help)}'`)
      .join(' ');
  // A command with commands under it (`eval add`) takes their options after their word.
  const subs = (c: CommandSpec): string =>
    c.subcommands?.length
      ? ` case $words[3] in ${c.subcommands.map((sub) => `${sub.name.split(' ')[1]}) options=(${opts(sub)}) ;;`).join(' ')} esac;`
      : '';
  const cases = commands.map((c) => `    ${c.name}) options=(${opts(c)});${subs(c)} ;;`).join('\n');
  return `#compdef thoughtline
# thoughtline completion for zsh: add  eval "$(thoughtline completion zsh)"  to ~/.zshrc (after compinit)
_thoughtline() {
  local -a commands options
  commands=(
${entries}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case $words[2] in
    help) _describe 'command' commands; return ;;
${cases}
  esac
  if [[ $PREFIX == -* ]]; then
    _describe 'option' options
  else
    _files
  fi
}
compdef _thoughtline thoughtline
`;
}

/** The completion script for `shell`, written from the command table. */
export function completionScript(shell: CompletionShell, commands: readonly CommandSpec[]): string {
  return shell === 'bash' ? bashScript(commands) : zshScript(commands);
}
