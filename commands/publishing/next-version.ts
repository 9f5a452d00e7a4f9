import { resolve } from "node:path";
import { ARGS } from "../../src/lib/args.ts";
import { defineCommand } from "../../src/lib/command.ts";
import { printDoc } from "../../src/lib/output.ts";
import { nextVersion, OWNER_MANAGED_MAJOR_MINOR } from "../../src/publishing/version-tag/next-version.ts";

export default defineCommand({
  meta: {
    name: "next-version",
    description: [`Print the next release tag: ${OWNER_MANAGED_MAJOR_MINOR}.<BUILD>, where BUILD is the number of commits on origin/main`, "(git rev-list --count refs/remotes/origin/main). MAJOR.MINOR is owner-managed and changes only in a release."].join(
      "\n",
    ),
  },
  usage: ["next-version [-C <dir>] [--json]"],
  args: {
    dir: { type: "string", alias: "C", valueHint: "dir", default: ".", description: "The repository to count in (default: the current directory)" },
    json: { ...ARGS.json, description: 'One compact JSON document: {"build":N,"tag":"vX.Y.N","version":"X.Y.N"}' },
  },
  mcp: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  exits: {
    ok: { code: 0, meaning: "printed the next version" },
    unavailable: { code: 2, meaning: "origin/main unavailable, shallow clone, not a git repository; usage error" },
  },
  notes: ["A missing origin/main or a shallow clone is exit 2 with the git command that fixes it: a guessed build\nnumber would collide with a real one."],
  examples: ["mogui next-version", 'git tag "v$(mogui next-version)"', "mogui next-version --json"],
  async run({ ctx, args, fail }) {
    const r = await nextVersion(ctx, resolve(ctx.cwd, args.dir));
    if (!r.ok) return fail("unavailable", r.message);
    if (args.json) printDoc(ctx, { build: Number(r.version.split(".").pop()), tag: `v${r.version}`, version: r.version }, true);
    else ctx.io.stdout(`${r.version}\n`);
    return "ok";
  },
});
