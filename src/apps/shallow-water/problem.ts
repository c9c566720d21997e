// The problem definition lives in the planner, below the backends that read it.
export * from '../../planner/swe-problem.js';
