/** One end-to-end case: argv through dist/mogui, the exit code and a pattern stdout must match. */
export interface Case {
  argv: string[];
  code: number;
  stdout: RegExp;
  env?: () => Record<string, string>;
  stdin?: string;
}
