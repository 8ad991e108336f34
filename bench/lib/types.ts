/** One benchmark goal: the measured value, the target as words, and whether it was met. */
export interface BenchGoal {
  label: string;
  value: number;
  target: string;
  met: boolean;
}

/** What every bench/sections/<name>.ts returns: a table to print and goals to check. */
export interface BenchSection {
  name: string;
  rows: Record<string, string | number>[];
  goals: BenchGoal[];
  /** Free-form facts about the run (machine, provider, notes) kept in the JSON report. */
  notes?: string[];
}
