import type { PlanTask, PlanTemplateName } from '../../../domain';

export interface PlanTemplate {
  name: string;
  description: string;
  steps: readonly string[];
}

/** The workflow templates (`debug_bug`, `implement_feature`, `refactor_code`): they seed the planner prompt, and are the plan when planning fails. */
export const planTemplates: Readonly<Record<PlanTemplateName, PlanTemplate>> = {
  debug_bug: {
    name: 'Debug Bug',
    description: 'Systematically debug and fix a bug',
    steps: [
      'Reproduce the bug',
      'Read relevant code files',
      'Identify root cause',
      'Propose fix',
      'Implement fix',
      'Test fix',
      'Commit changes',
    ],
  },
  implement_feature: {
    name: 'Implement Feature',
    description: 'Design and implement a new feature',
    steps: [
      'Understand requirements',
      'Design architecture',
      'Identify files to modify',
      'Implement core functionality',
      'Add error handling',
      'Write tests',
      'Update documentation',
      'Commit changes',
    ],
  },
  refactor_code: {
    name: 'Refactor Code',
    description: 'Improve code quality without changing behavior',
    steps: [
      'Analyze current code',
      'Identify improvement opportunities',
      'Plan refactoring steps',
      'Execute refactoring',
      'Run tests to verify behavior',
      'Commit changes',
    ],
  },
};

/** The template's steps as pending tasks t1..tn, each depending on the one before. */
export function templateTasks(name: PlanTemplateName): PlanTask[] {
  return planTemplates[name].steps.map((step, i) => ({
    id: `t${i + 1}`,
    description: step,
    dependencies: i === 0 ? [] : [`t${i}`],
    requiredTools: [],
    status: 'pending',
  }));
}
