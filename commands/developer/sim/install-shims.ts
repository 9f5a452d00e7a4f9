/**
 * `mogui sim install-shims <dir>`: `orca`, `orca-dev`, `orca-ide` and `herdr` scripts that exec this binary's
 * simulators, so a downloaded mogui alone can run the walkthroughs (put <dir> first on PATH). The repository's
 * fixtures/bin holds the same shims for a checkout.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineCommand } from "../../../src/lib/command.ts";
import { errnoCode, errorMessage } from "../../../src/lib/errors.ts";
import { printLines } from "../../../src/lib/output.ts";

const SHIMS: Array<[string, string]> = [
  ["orca", "orca"],
  ["orca-dev", "orca"],
  ["orca-ide", "orca"],
  ["herdr", "herdr"],
];

/** The exec line: this compiled binary (MOGUI_BIN overrides it), or in a run from source bun plus the entry script. */
function execLine(sim: string): string {
  const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.includes("~BUN");
  if (!compiled) return `exec ${[process.execPath, Bun.main].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ")} sim ${sim} "$@"`;
  return `exec "\${MOGUI_BIN:-${process.execPath.replace(/["\\$`]/g, "\\$&")}}" sim ${sim} "$@"`;
}

const shim = (sim: string) => `#!/bin/sh\n# Written by \`mogui sim install-shims\`: the built-in ${sim} simulator (see mogui sim ${sim} --help).\n${execLine(sim)}\n`;

export default defineCommand({
  meta: {
    name: "sim install-shims",
    description: [
      "Write `orca`, `orca-dev`, `orca-ide` and `herdr` into <dir>: tiny sh scripts that run this binary's Orca",
      "and herdr simulators. Put <dir> first on PATH to try any command without a real Orca or herdr. A file",
      "that already exists in <dir> is left unchanged (listed as kept).",
    ].join("\n"),
  },
  usage: ["sim install-shims <dir>"],
  args: {
    dir: { type: "positional", required: true, description: "Where to write the shims (created if missing)" },
  },
  exits: {
    ok: { code: 0, meaning: "every shim written, or kept because it already existed (both listed)" },
    usage: { code: 2, meaning: "usage error, or <dir> cannot be created or written" },
  },
  notes: ["State and faults of each simulator: mogui sim orca --help, mogui sim herdr --help (HERDR_SIM_STATE must be set for herdr)."],
  examples: ['mogui sim install-shims "$HOME/.mogui/sim-bin" && export PATH="$HOME/.mogui/sim-bin:$PATH"'],
  async run({ ctx, args, fail }) {
    const dir = resolve(ctx.cwd, args.dir);
    const lines: string[] = [];
    try {
      mkdirSync(dir, { recursive: true });
      for (const [name, sim] of SHIMS) {
        const path = join(dir, name);
        try {
          writeFileSync(path, shim(sim), { flag: "wx" });
        } catch (e) {
          if (errnoCode(e) !== "EEXIST") throw e;
          lines.push(`kept ${path} (exists; left unchanged)`);
          continue;
        }
        chmodSync(path, 0o755);
        lines.push(`wrote ${path}`);
      }
    } catch (e) {
      return fail("usage", `sim install-shims: cannot write into ${dir}: ${errnoCode(e) ?? errorMessage(e)}`);
    }
    printLines(ctx, lines);
    return "ok";
  },
});
