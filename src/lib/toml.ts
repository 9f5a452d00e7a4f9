/**
 * The one place mogui reads TOML (gitleaks rule files, Codex `config.toml`): a thin wrapper over smol-toml (TOML 1.0).
 *
 * Values are plain: tables are prototype-less objects, arrays, strings, numbers (integers past 2^53 become `bigint`
 * rather than losing digits), booleans; date-times are smol-toml's `TomlDate` (a `Date` whose `toISOString()` is its TOML form).
 *
 * Errors are `TomlError` with a one-line message that starts with the 1-based line (`line N: ...`), so a config
 * problem is reported as `<file>: line N: ...` without a stack trace or a multi-line code excerpt.
 */
import { parse, TomlError as SmolTomlError } from "smol-toml";

export class TomlError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "TomlError";
  }
}

export function parseToml(text: string): Record<string, unknown> {
  try {
    return parse(text, { integersAsBigInt: "asNeeded" });
  } catch (e) {
    if (!(e instanceof SmolTomlError)) throw e;
    // smol-toml's message is "Invalid TOML document: <what>\n\n<code excerpt>": keep <what>.
    const what = e.message
      .replace(/^Invalid TOML document: /, "")
      .split("\n")[0]!
      .trim();
    throw new TomlError(what || "invalid TOML", e.line, e.column);
  }
}
