/**
 * The host's hook JSON arrives on stdin (Claude Code writes one object and closes the pipe). Ctx has no stdin
 * reader, so hooks read fd 0 here: never when it is a TTY (a person running the hook by hand), and an empty or
 * closed stdin is simply "no input". `--input-file` lets tests and people feed a file instead.
 */
import { fstatSync, readFileSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { errnoCode } from "../../lib/errors.ts";

const MAX_BYTES = 8 * 1024 * 1024;

/** Everything on fd 0, or "" when fd 0 is a TTY, closed, or not readable. */
function readStdinText(): string {
  try {
    // A TTY (and /dev/null) is a character device: nothing to read, and never block on a person's terminal.
    const st = fstatSync(0);
    if (st.isCharacterDevice()) return "";
    if (!st.isFile() && !st.isFIFO() && !st.isSocket()) return "";
  } catch {
    return "";
  }
  try {
    // One call that reads to EOF: the host writes its JSON and closes the pipe.
    return readFileSync(0, "utf8");
  } catch (e) {
    if (errnoCode(e) !== "EAGAIN") return "";
  }
  const chunks: Buffer[] = [];
  const buf = Buffer.allocUnsafe(16 * 1024);
  let total = 0;
  let spins = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      // A non-blocking pipe with no data yet: wait a little, but never hang a hook on a writer that never closes.
      if (errnoCode(e) === "EAGAIN" && spins++ < 200) {
        Bun.sleepSync(5);
        continue;
      }
      break;
    }
    if (n <= 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    total += n;
    if (total > MAX_BYTES) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}

export type HookInput = Record<string, unknown>;

export type InputResult = { ok: true; input: HookInput; empty: boolean } | { ok: false; why: string };

/** The hook JSON from `--input-file` (or stdin when absent or '-'); "" is an empty object, not an error. */
export function readHookInput(cwd: string, inputFile: string | undefined): InputResult {
  let text: string;
  if (inputFile && inputFile !== "-") {
    try {
      text = readFileSync(resolve(cwd, inputFile), "utf8");
    } catch (e) {
      return { ok: false, why: `cannot read ${inputFile}: ${errnoCode(e) ?? String(e)}` };
    }
  } else text = readStdinText();
  if (text.trim() === "") return { ok: true, input: {}, empty: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: "hook input is not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, why: "hook input is not a JSON object" };
  return { ok: true, input: value as HookInput, empty: false };
}

export function str(input: HookInput, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

export function toolInput(input: HookInput): Record<string, unknown> {
  const v = input.tool_input;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
