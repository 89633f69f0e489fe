import type { CommandSpec } from '../../spec/command-line';
import { flag } from '../../spec/flags';
import { UsageError } from '../../spec/usage-error';
import { setCurrent } from './versions';

export const SET_CURRENT_VERSION_COMMAND: CommandSpec = {
  name: 'set-current-version',
  group: 'Operations',
  summary: "send new runs to a version's workers (rollout, rollback)",
  description:
    "Send new runs to that version's workers (a rollout or a rollback); --unversioned: to unversioned workers.",
  usage: ['set-current-version <buildId> | --unversioned'],
  examples: ['thoughtline set-current-version 0.1.0+3f2a9c1d', 'thoughtline set-current-version --unversioned'],
  args: [{ name: '<buildId>' }],
  options: { unversioned: flag('send new runs to unversioned workers instead') },
  run: async (l) => {
    const buildId = l.args[0];
    if (Boolean(buildId) === l.flag('unversioned'))
      throw new UsageError(
        '"set-current-version" needs a build id from thoughtline versions, or --unversioned (not both).',
      );
    return setCurrent(buildId ?? null);
  },
};
