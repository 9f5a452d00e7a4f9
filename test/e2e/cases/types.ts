/** One end-to-end case: argv through dist/mogui, the exit code and a pattern stdout must match. */
export interface Case {
  argv: string[];
  code: number;
  stdout: RegExp;
  env?: () => Record<string, string>;
  stdin?: string;
}

/**
 * A family's cases, keyed by command name. The cases live by historical family files; test/e2e/commands.test.ts
 * checks at run time that together they cover exactly the registered commands.
 */
export type FamilyCases = { [K in import("../../../commands/index.ts").CommandName]?: Case };
