/**
 * Every exit code the e2e suite observes must be listed in that command's EXIT CODES (issue 13 §5). runBinary
 * calls `unlistedExit` after every run of the binary, so the check holds for whatever commands and tests exist,
 * in whatever processes the test files run: an observed code that the command's own table does not list (a
 * row `N` admits any code) fails the test that observed it. Global invocations (`--help`, `--version`, `help`,
 * unknown commands) answer from the "(every command)" rows and are not checked here.
 */
import { commandEntry } from "../../commands/index.ts";
import { EXIT_CODES } from "../../src/lib/exit-codes.ts";

/** The command path argv names (longest match first, `--debug` ignored), as src/main.ts resolves it. */
export function commandOf(argv: readonly string[]): string | undefined {
  const args = argv.filter((a) => a !== "--debug");
  for (let n = Math.min(3, args.length); n >= 1; n--) {
    const path = args.slice(0, n).join(" ");
    if (commandEntry(path)) return path;
  }
  return undefined;
}

/** Why `code` is not a documented exit of the command argv runs; null when it is (or argv names no command). */
export function unlistedExit(argv: readonly string[], code: number): string | null {
  const cmd = commandOf(argv);
  if (cmd === undefined) return null;
  const rows = EXIT_CODES[cmd];
  if (!rows) return `mogui ${cmd} has no EXIT CODES table (commands/families/*.ts exitCodes)`;
  if (rows.some((r) => r.code === "N" || r.code === code)) return null;
  const listed = rows.map((r) => r.code).join(", ");
  return `mogui ${cmd} exited ${code}, which its EXIT CODES (${listed}) do not list: add the row in commands/families/*.ts (argv: ${argv.join(" ")})`;
}
