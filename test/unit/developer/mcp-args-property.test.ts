/**
 * Property: a tool call's arguments reach the command exactly. For random values (leading dashes, `=`, `--`,
 * spaces, newlines, quotes, `$(...)`, non-ASCII, the command's own flag names), the command line `argvOf` builds,
 * parsed by the command's own strict parser, gives back the same values: no value is read as a flag, split, or
 * expanded. Reproduce: `MOGUI_PROPERTY_SEED=<seed> bun test test/unit/developer/mcp-args-property.test.ts`;
 * `MOGUI_PROPERTY_CASES` changes the count (default 300).
 */
import { expect, test } from "bun:test";
import { REGISTRY } from "../../../commands/index.ts";
import { parseArgv } from "../../../src/lib/args.ts";
import { argvOf, loadTools, OPERANDS_ARG, type Tool } from "../../../src/developer/mcp/tools.ts";
import { prng } from "../../helpers/prng.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

const SEED = Number(process.env.MOGUI_PROPERTY_SEED ?? 0x3c9_2027) >>> 0;
const CASES = Number(process.env.MOGUI_PROPERTY_CASES ?? 300);

const PIECES = ["-", "--", "---", "=", "--json", "--ledger", "-h", "--help", "--no-record", " ", "\n", "'", '"', "$(id)", "`x`", "*", "é", "日本", "\t", "a", "b", "0", "-5", "x=y", ";", "|"];

test(`random argument values round-trip through argvOf and the command's parser (seed ${SEED}, ${CASES} cases)`, async () => {
  console.log(`mcp-args-property seed=${SEED} cases=${CASES}`);
  const r = prng(SEED);
  const tools = (await loadTools(REGISTRY)).filter((t) => ["tracks_register", "fleet_scan", "redaction_scan", "worker_reap", "context_resolve", "dispatch_gate_check"].includes(t.name));
  expect(tools.length).toBe(6);
  const value = () => {
    let s = "";
    const n = r.int(1, 4);
    for (let i = 0; i < n; i++) s += r.pick(PIECES);
    return s;
  };
  const failures: string[] = [];
  for (let i = 0; i < CASES; i++) {
    const tool: Tool = r.pick(tools);
    const args: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(tool.cmd.args)) {
      if (def.hidden || name === "json" || !r.chance(def.required ? 1 : 0.4)) continue;
      if (def.type === "boolean") continue; // exclusive groups aside, booleans are covered by the unit tests
      if (def.type === "int") args[name] = r.int(def.min, def.max);
      else if (def.type === "enum") args[name] = r.pick(def.options ?? []);
      else if (def.type !== "positional" && def.multiple) args[name] = Array.from({ length: r.int(1, 3) }, value);
      else args[name] = value();
    }
    if (tool.cmd.rules?.variadic && r.chance(0.5)) args[OPERANDS_ARG] = Array.from({ length: r.int(1, 3) }, value);
    if (tool.name === "redaction_scan") args.paths = true;
    const argv = argvOf(tool, args);
    const words = tool.path.split(" ").length;
    let parsed: Record<string, unknown>;
    try {
      // The exclusive groups are the command's; this checks only that values survive, so the rules are left out.
      parsed = parseArgv(tool.path, argv.slice(words), tool.cmd.args, { variadic: tool.cmd.rules?.variadic }, { typed: true });
    } catch (e) {
      failures.push(`${tool.name} ${JSON.stringify(args)} -> ${JSON.stringify(argv)}: ${errorMessage(e)}`);
      continue;
    }
    for (const [k, v] of Object.entries(args)) {
      const got = k === OPERANDS_ARG ? parsed._ : parsed[k];
      if (JSON.stringify(got) !== JSON.stringify(v)) failures.push(`${tool.name} ${k}: sent ${JSON.stringify(v)}, parsed ${JSON.stringify(got)} (argv ${JSON.stringify(argv)})`);
    }
  }
  if (failures.length) console.log(`REPRODUCE: MOGUI_PROPERTY_SEED=${SEED} MOGUI_PROPERTY_CASES=${CASES}\n${failures.slice(0, 20).join("\n")}`);
  expect(failures).toEqual([]);
});
