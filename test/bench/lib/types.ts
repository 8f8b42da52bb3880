/** What each benchmark hands back to the runner. */
export interface Row {
  figure: string;
  value: string;
  baseline?: string;
  ratio?: string;
  target?: string;
  /** true/false when the row has a target; undefined when it is informative only. */
  met?: boolean;
}

export interface Section {
  id: string;
  title: string;
  /** One paragraph: what was measured and against what. */
  method: string;
  rows: Row[];
  notes: string[];
  /** Raw figures for bench-results.json. */
  data: Record<string, unknown>;
  seconds: number;
}

export interface BenchConfig {
  quick: boolean;
  repoRoot: string;
  workDir: string;
  loadSeconds: number;
  loadConnections: number;
  log: (line: string) => void;
}
