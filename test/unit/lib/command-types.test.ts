// Typed args are inferred from the definitions (checked by tsc; bun runs the assertions below at run time too).
import { describe, expect, test } from "bun:test";
import { ARGS, parseArgv } from "../../../src/lib/args.ts";
import { defineCommand } from "../../../src/lib/command.ts";

const args = {
  id: { type: "positional", required: true },
  n: { type: "int", min: 1, max: 9 },
  m: { type: "int", min: 0, max: 5, default: 3 },
  ref: { type: "string", multiple: true },
  mode: { type: "enum", options: ["a", "b"] },
  title: { type: "string", required: true },
  note: { type: "string", default: "" },
  ledger: ARGS.ledger,
  json: ARGS.json,
} as const;

const cmd = defineCommand({
  meta: { name: "t", description: "types" },
  usage: ["t"],
  args,
  exits: { ok: { code: 0, meaning: "ok" }, nope: { code: 3, meaning: "refused" } },
  async run({ args: a, fail }) {
    const id: string = a.id;
    const n: number | undefined = a.n;
    const m: number = a.m;
    const ref: string[] = a.ref;
    const mode: "a" | "b" | undefined = a.mode;
    const title: string = a.title;
    const note: string = a.note;
    const ledger: string | undefined = a.ledger;
    const json: boolean = a.json;
    // @ts-expect-error an optional int is not a number
    const bad: number = a.n;
    // @ts-expect-error an undeclared exit name
    if (json) return fail("missing", "x");
    void [id, n, m, ref, mode, title, note, ledger, bad];
    return n ? "nope" : "ok";
  },
});

describe("typed args", () => {
  test("the typed parse applies defaults, [] for repeatables and false for booleans", () => {
    const v: Record<string, unknown> = parseArgv("t", ["x", "--title", "T"], cmd.args, {}, { typed: true });
    expect(v).toEqual({ _: [], id: "x", title: "T", m: 3, ref: [], note: "", json: false });
  });
});
