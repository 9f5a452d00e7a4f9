/**
 * Every exit code the e2e suite observes must be listed in that command's EXIT CODES (issue 13 §5). runBinary
 * calls `unlistedExit` after every run of the binary, so the check holds for whatever commands and tests exist,
 * in whatever processes the test files run: an observed code that the command's own table does not list (a
 * row `N` admits any code) fails the test that observed it. Global invocations (`--help`, `--version`, `help`,
 * unknown commands) answer from the "(every command)" rows and are not checked here.
 */
import { commandEntry } from "../../commands/index.ts";
import { exitRowsFor } from "../../src/lib/help.ts";

/** The command path argv names (longest match first, `--debug` ignored), as src/main.ts resolves it. */
function commandOf(argv: readonly string[]): string | undefined {
  const args = argv.filter((a) => a !== "--debug");
  for (let n = Math.min(3, args.length); n >= 1; n--) {
    const path = args.slice(0, n).join(" ");
    if (commandEntry(path)) return path;
  }
  return undefined;
}

/** Why `code` is not a documented exit of the command argv runs; null when it is (or argv names no command). */
export async function unlistedExit(argv: readonly string[], code: number): Promise<string | null> {
  const cmd = commandOf(argv);
  if (cmd === undefined) return null;
  // The command's declared exits: the one source of its EXIT CODES.
  const rows = exitRowsFor((await commandEntry(cmd)!.load()).default);
  if (!rows) return `mogui ${cmd} has no EXIT CODES (it declares no exits)`;
  if (rows.some((r) => r.code === "N" || r.code === code)) return null;
  const listed = rows.map((r) => r.code).join(", ");
  return `mogui ${cmd} exited ${code}, which its EXIT CODES (${listed}) do not list: declare it in the command's exits (argv: ${argv.join(" ")})`;
}
