/**
 * The next release tag (reference §27): `<MAJOR.MINOR>.<BUILD>` where MAJOR.MINOR is owner-managed and BUILD is the
 * number of commits on origin/main. A shallow clone would under-count, so it is refused rather than guessed.
 */
import { git } from "../../lib/git.ts";
import type { Ctx } from "../../lib/context.ts";

export const OWNER_MANAGED_MAJOR_MINOR = "0.5";
const REF = "refs/remotes/origin/main";

export type NextVersion = { ok: true; version: string } | { ok: false; message: string };

export async function nextVersion(ctx: Ctx, dir: string): Promise<NextVersion> {
  const shallow = await git(ctx, dir, ["rev-parse", "--is-shallow-repository"]);
  if (!shallow.ok) return { ok: false, message: `next-version: not a git repository: ${dir}` };
  if (shallow.stdout.trim() === "true") return { ok: false, message: "next-version: shallow clone detected; run: git fetch --unshallow origin main --tags" };
  const ref = await git(ctx, dir, ["rev-parse", "--verify", "--quiet", `${REF}^{commit}`]);
  if (!ref.ok) return { ok: false, message: "next-version: origin/main is unavailable; run: git fetch origin main --tags" };
  const count = await git(ctx, dir, ["rev-list", "--count", REF]);
  const n = count.stdout.trim();
  if (!count.ok || !/^\d+$/.test(n)) return { ok: false, message: `next-version: cannot count origin/main: ${count.why || "unexpected output"}` };
  return { ok: true, version: `${OWNER_MANAGED_MAJOR_MINOR}.${n}` };
}
