/**
 * The strict argv parser: everything citty would accept silently (unknown flags, a flag swallowing the next flag
 * as its value, repeats, conflicts, extra positionals) is a UsageError (exit 2) with a one-line message.
 */
import { describe, expect, test } from "bun:test";
import { type MoguiArgsDef, type ParseRules, parseArgv } from "../../../src/lib/args.ts";
import { ExitError, UsageError } from "../../../src/lib/errors.ts";

const CMD = "dispatch-gate check";

const defs: MoguiArgsDef = {
  task: { type: "positional", description: "task id", required: true },
  extra: { type: "positional", description: "optional second positional", required: false },
  ledger: { type: "string", description: "ledger path", alias: "l" },
  json: { type: "boolean", description: "JSON output", alias: ["j"] },
  "dry-run": { type: "boolean", description: "plan only" },
  tier: { type: "enum", description: "tier", options: ["low", "mid", "high"] },
  tag: { type: "string", description: "repeatable", multiple: true },
  "task-id": { type: "string", description: "task" },
  "dispatch-id": { type: "string", description: "dispatch" },
  mode: { type: "string", description: "mode" },
};

function usage(argv: string[], d: MoguiArgsDef = defs, rules?: ParseRules): UsageError {
  try {
    parseArgv(CMD, argv, d, rules);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    expect(e).toBeInstanceOf(ExitError);
    const u = e as UsageError;
    expect(u.code).toBe(2);
    expect(u.name).toBe("UsageError");
    expect(u.command).toBe(CMD);
    expect(u.message).not.toContain("\n");
    return u;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(argv)}`);
}

describe("accepted forms", () => {
  test("flags, aliases, positionals", () => {
    expect(parseArgv(CMD, ["T1", "--ledger", "/tmp/l.jsonl", "-j", "--tier", "mid"], defs)).toEqual({
      _: [],
      task: "T1",
      ledger: "/tmp/l.jsonl",
      json: true,
      tier: "mid",
    });
    expect(parseArgv(CMD, ["-l", "x", "T1", "E"], defs)).toEqual({ _: [], task: "T1", extra: "E", ledger: "x" });
  });

  test("--flag=value, including a value that starts with --", () => {
    expect(parseArgv(CMD, ["T1", "--ledger=--weird"], defs)).toEqual({ _: [], task: "T1", ledger: "--weird" });
    expect(parseArgv(CMD, ["T1", "--mode=a=b"], defs)).toEqual({ _: [], task: "T1", mode: "a=b" });
  });

  test("a value that is a lone '-' or a single-dash word is taken as the value", () => {
    expect(parseArgv(CMD, ["T1", "--ledger", "-"], defs).ledger).toBe("-");
    expect(parseArgv(CMD, ["T1", "--mode", "-x"], defs).mode).toBe("-x");
  });

  test("a value that starts with '-' but is not one of the command's flags is a value (front matter, -5, ---)", () => {
    const front = "---\ntitle: x\n---\nbody\n";
    expect(parseArgv(CMD, ["T1", "--mode", front], defs).mode).toBe(front);
    expect(parseArgv(CMD, ["T1", "--mode", "---"], defs).mode).toBe("---");
    expect(parseArgv(CMD, ["T1", "--mode", "-5"], defs).mode).toBe("-5");
    expect(parseArgv(CMD, ["T1", "--mode", "--not-a-flag of ours"], defs).mode).toBe("--not-a-flag of ours");
    expect(parseArgv(CMD, ["T1", "--mode", "--", "--json"], defs)).toEqual({ _: [], task: "T1", mode: "--", json: true });
  });

  test("boolean =true / =false", () => {
    expect(parseArgv(CMD, ["T1", "--json=true"], defs).json).toBe(true);
    expect(parseArgv(CMD, ["T1", "--json=false"], defs).json).toBe(false);
    expect(parseArgv(CMD, ["T1"], defs).json).toBeUndefined();
  });

  test("a multiple flag collects every value in order", () => {
    expect(parseArgv(CMD, ["T1", "--tag", "a", "--tag=b", "--tag", "c"], defs).tag).toEqual(["a", "b", "c"]);
  });

  test("-- ends flags: everything after it is positional", () => {
    expect(parseArgv(CMD, ["--json", "--", "--ledger", "x"], defs)).toEqual({ _: [], json: true, task: "--ledger", extra: "x" });
    expect(parseArgv(CMD, ["--", "-j"], defs)).toEqual({ _: [], task: "-j" });
  });

  test("variadic keeps the extra positionals in _", () => {
    expect(parseArgv(CMD, ["T1", "E", "f1", "f2"], defs, { variadic: true })).toEqual({ _: ["f1", "f2"], task: "T1", extra: "E" });
  });

  test("exclusive groups accept one member, exactlyOne accepts exactly one", () => {
    const rules: ParseRules = { exactlyOne: [["task-id", "dispatch-id"]], exclusive: [["json", "dry-run"]] };
    expect(parseArgv(CMD, ["T1", "--task-id", "t", "--json"], defs, rules)).toEqual({ _: [], task: "T1", "task-id": "t", json: true });
    // --json=false does not count as given.
    expect(parseArgv(CMD, ["T1", "--dispatch-id", "d", "--json=false", "--dry-run"], defs, rules)["dry-run"]).toBe(true);
  });
});

describe("usage errors (exit 2, one line)", () => {
  test("unknown long and short flags", () => {
    expect(usage(["T1", "--nope"]).message).toBe(`unknown flag --nope for 'mogui ${CMD}'`);
    expect(usage(["T1", "--nope=1"]).message).toBe(`unknown flag --nope for 'mogui ${CMD}'`);
    expect(usage(["T1", "-z"]).message).toBe(`unknown flag -z for 'mogui ${CMD}'`);
  });

  test("a flag that needs a value followed by another flag, or by nothing", () => {
    expect(usage(["T1", "--ledger", "--json"]).message).toBe("flag --ledger needs a value");
    expect(usage(["T1", "--ledger"]).message).toBe("flag --ledger needs a value");
    expect(usage(["T1", "-l", "--tier", "low"]).message).toBe("flag --ledger needs a value");
    expect(usage(["T1", "--tier"]).message).toBe("flag --tier needs a value");
    // The protection holds for every spelling of the command's own flags, and for --help.
    expect(usage(["T1", "--ledger", "--json=true"]).message).toBe("flag --ledger needs a value");
    expect(usage(["T1", "--ledger", "-j"]).message).toBe("flag --ledger needs a value");
    expect(usage(["T1", "--mode", "--dry-run"]).message).toBe("flag --mode needs a value");
    expect(usage(["T1", "--mode", "--help"]).message).toBe("flag --mode needs a value");
  });

  test("a non-multiple flag given twice", () => {
    expect(usage(["T1", "--ledger", "a", "--ledger", "b"]).message).toBe("flag --ledger given more than once");
    expect(usage(["T1", "-l", "a", "--ledger=b"]).message).toBe("flag --ledger given more than once");
  });

  test("an empty string value", () => {
    expect(usage(["T1", "--ledger="]).message).toBe("--ledger must not be empty");
    expect(usage(["T1", "--ledger", ""]).message).toBe("--ledger must not be empty");
  });

  test("a bad boolean value", () => {
    expect(usage(["T1", "--json=yes"]).message).toBe("--json takes no value (got 'yes')");
    expect(usage(["T1", "--dry-run="]).message).toBe("--dry-run takes no value (got '')");
  });

  test("enum values outside the options", () => {
    expect(usage(["T1", "--tier", "max"]).message).toBe("--tier must be one of low, mid, high (got 'max')");
    expect(usage(["T1", "--tier="]).message).toBe("--tier must be one of low, mid, high (got '')");
  });

  test("required and extra positionals", () => {
    expect(usage([]).message).toBe("missing required argument <task>");
    expect(usage(["--json"]).message).toBe("missing required argument <task>");
    expect(usage(["T1", "E", "surplus"]).message).toBe("unexpected argument 'surplus'");
    expect(usage(["T1", "E", "--", "--json"]).message).toBe("unexpected argument '--json'");
  });

  test("exclusive groups", () => {
    const rules: ParseRules = { exclusive: [["json", "dry-run", "mode"]] };
    expect(usage(["T1", "--json", "--dry-run"], defs, rules).message).toBe("flags --json, --dry-run cannot be used together");
    expect(usage(["T1", "--mode", "m", "--json", "--dry-run"], defs, rules).message).toBe("flags --json, --dry-run, --mode cannot be used together");
  });

  test("exactlyOne groups: none or two", () => {
    const rules: ParseRules = { exactlyOne: [["task-id", "dispatch-id"]] };
    expect(usage(["T1"], defs, rules).message).toBe("one of --task-id, --dispatch-id is required");
    expect(usage(["T1", "--dispatch-id", "d", "--task-id", "t"], defs, rules).message).toBe("flags --task-id, --dispatch-id cannot be used together");
  });

  test("required flags", () => {
    const d: MoguiArgsDef = { out: { type: "string", description: "out", required: true } };
    expect(usage([], d).message).toBe("missing required flag --out");
    expect(parseArgv(CMD, ["--out", "o"], d)).toEqual({ _: [], out: "o" });
  });
});

describe("citty parses, the strict layer checks (D35)", () => {
  const d: MoguiArgsDef = {
    ...defs,
    "no-record": { type: "boolean", description: "a flag citty would read as --record=false" },
    record: { type: "string", description: "a flag named like the negation's stem" },
  };

  test("a value that looks like citty's --no-x negation stays a value", () => {
    expect(parseArgv(CMD, ["T1", "--mode", "--no-verify"], d).mode).toBe("--no-verify");
    expect(parseArgv(CMD, ["T1", "--tag", "--no-x", "--tag", "-5"], d).tag).toEqual(["--no-x", "-5"]);
    expect(parseArgv(CMD, ["T1", "-l", "--no-x"], d).ledger).toBe("--no-x");
  });

  test("a flag named no-... is itself, not a negation", () => {
    expect(parseArgv(CMD, ["T1", "--no-record"], d)).toEqual({ _: [], task: "T1", "no-record": true });
    expect(parseArgv(CMD, ["T1", "--no-record=false", "--record", "r"], d)).toEqual({ _: [], task: "T1", "no-record": false, record: "r" });
  });

  test("spellings citty would accept but mogui does not declare are unknown flags", () => {
    expect(usage(["T1", "--dryRun"]).message).toBe(`unknown flag --dryRun for 'mogui ${CMD}' (did you mean --dry-run?)`);
    expect(usage(["T1", "--no-json"]).message).toBe(`unknown flag --no-json for 'mogui ${CMD}'`);
    expect(usage(["T1", "-j5"]).message).toBe(`unknown flag -j5 for 'mogui ${CMD}'`);
    expect(usage(["T1", "--ledger", "--no-record"], d).message).toBe("flag --ledger needs a value");
  });

  test("did you mean, and the flags after -- are positionals even when they look like negations", () => {
    expect(usage(["T1", "--ledgr", "x"]).message).toBe(`unknown flag --ledgr for 'mogui ${CMD}' (did you mean --ledger?)`);
    expect(parseArgv(CMD, ["--", "--no-x", "-5"], defs)).toEqual({ _: [], task: "--no-x", extra: "-5" });
  });
});

describe("the long-flags-only fast path (no citty) parses exactly as citty does", () => {
  // Appending `--` (with nothing after it) sends the same tokens through citty: the two results must agree, for
  // every mix of forms, values that look like flags, repeats and errors. Seeded; the seed is printed.
  const flagDefs: MoguiArgsDef = {
    ledger: { type: "string", description: "ledger path", alias: "l" },
    json: { type: "boolean", description: "JSON output" },
    "max-tokens": { type: "int", min: 1, max: 1_000_000, description: "cap" },
    tier: { type: "enum", description: "tier", options: ["low", "mid", "high"] },
    tag: { type: "string", description: "repeatable", multiple: true },
    "no-record": { type: "boolean", description: "a no- flag" },
    mode: { type: "string", description: "mode", default: "auto" },
  };
  const values = ["x", "-5", "---", "--json", "a=b", "", "low", "12", "1_000", "-", "--no-record", "T"];
  test("random argv, both paths", () => {
    const seed = Number(process.env.MOGUI_PROPERTY_SEED ?? Date.now() % 1_000_000);
    console.log(`args fast-path property seed: ${seed}`);
    let x = seed || 1;
    const rnd = (n: number) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % n;
    };
    const names = Object.keys(flagDefs);
    const outcome = (argv: string[]) => {
      try {
        return { ok: parseArgv(CMD, argv, flagDefs, {}, { typed: true }) };
      } catch (e) {
        return { error: (e as Error).message };
      }
    };
    for (let k = 0; k < 2000; k++) {
      const argv: string[] = [];
      for (let t = rnd(5); t > 0; t--) {
        const name = names[rnd(names.length)]!;
        const v = values[rnd(values.length)]!;
        const form = rnd(4);
        if (flagDefs[name]!.type === "boolean") argv.push(form === 0 ? `--${name}=${["true", "false", "x"][rnd(3)]}` : `--${name}`);
        else if (form === 0) argv.push(`--${name}=${v}`);
        else argv.push(`--${name}`, v);
      }
      expect({ argv, ...outcome(argv) }).toEqual({ argv, ...outcome([...argv, "--"]) });
    }
  });
});
