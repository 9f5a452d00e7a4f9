import { resolve } from "node:path";
import { defineMoguiCommand } from "../../src/lib/command.ts";
import { nextVersion, OWNER_MANAGED_MAJOR_MINOR } from "../../src/publishing/version-tag/next-version.ts";

export default defineMoguiCommand({
  meta: {
    name: "next-version",
    description: [
      `Print the next release tag: ${OWNER_MANAGED_MAJOR_MINOR}.<BUILD>, where BUILD is the number of commits on origin/main`,
      "(git rev-list --count refs/remotes/origin/main). MAJOR.MINOR is owner-managed and changes only in a release.",
    ].join("\n"),
  },
  usage: ["next-version [-C <dir>]"],
  args: {
    dir: { type: "string", alias: "C", valueHint: "dir", description: "The repository to count in (default: the current directory)" },
  },
  notes: ["A missing origin/main or a shallow clone is exit 2 with the git command that fixes it: a guessed build\nnumber would collide with a real one."],
  examples: ["mogui next-version", "git tag \"v$(mogui next-version)\""],
  async run(ctx, args) {
    const dir = resolve(ctx.cwd, (args.dir as string | undefined) ?? ".");
    const r = await nextVersion(ctx, dir);
    if (!r.ok) {
      ctx.io.stderr(`${r.message}\n`);
      return 2;
    }
    ctx.io.stdout(`${r.version}\n`);
    return 0;
  },
});
