import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import * as v from "valibot";
import { defineCommand, failWith } from "../../src/lib/command.ts";
import type { Ctx } from "../../src/lib/context.ts";
import { logger } from "../../src/lib/log.ts";
import { hygieneDefects, installPaths, renderManifest, staleDiagnostics, type ManifestDoc } from "../../src/ops-repo/manifest/generate.ts";
import { atomicWrite } from "../../src/lib/fs.ts";
import { errnoCode, errorMessage } from "../../src/lib/errors.ts";

const NAME = "generate-manifest";

const EXITS = {
  ok: { code: 0, meaning: "manifest written, printed, or (--check) up to date" },
  failed: { code: 1, meaning: "stale or missing manifest (--check), frame hygiene defect, TEMPLATE-VERSION unreadable or empty, output not a regular file" },
  noSkeleton: { code: 2, meaning: "usage; the skeleton is not a directory" },
} as const;

const fail = (name: keyof typeof EXITS, msg: string): never => failWith(EXITS, name, `${NAME}: ${msg}`);

/** Default skeleton: the nearest master-ops/ (with TEMPLATE-VERSION) from the working directory upwards. */
function defaultSkeleton(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "master-ops", "TEMPLATE-VERSION"))) return join(dir, "master-ops");
    if (dirname(dir) === dir) return join(resolve(cwd), "master-ops");
  }
}

function readVersion(skeleton: string): string {
  let text: string;
  try {
    text = readFileSync(join(skeleton, "TEMPLATE-VERSION"), "utf8").trim();
  } catch (e) {
    return fail("failed", `cannot read ${join(skeleton, "TEMPLATE-VERSION")}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
  if (!text) return fail("failed", `TEMPLATE-VERSION is empty: ${join(skeleton, "TEMPLATE-VERSION")}`);
  return text;
}

function check(ctx: Ctx, out: string, fresh: ManifestDoc): "ok" | "failed" {
  let text: string;
  try {
    text = readFileSync(out, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    return fail("failed", code === "ENOENT" ? `MANIFEST.json missing: ${out}; run mogui generate-manifest` : `cannot read ${out}: ${code}`);
  }
  let committed: ManifestDoc;
  try {
    committed = v.parse(v.object({ template_version: v.string(), files: v.array(v.string()) }), JSON.parse(text));
  } catch (e) {
    return fail("failed", `committed manifest is invalid: ${out}: ${errorMessage(e).split("\n")[0]}`);
  }
  const diags = staleDiagnostics(committed, fresh);
  if (diags.length === 0) return "ok";
  logger(ctx, NAME).log(`MANIFEST.json is stale; run mogui generate-manifest\n${diags.join("\n")}`);
  return "failed";
}

function write(ctx: Ctx, out: string, fresh: ManifestDoc): "ok" {
  let st;
  try {
    st = lstatSync(out);
  } catch {
    /* new file */
  }
  if (st && !st.isFile()) return fail("failed", `refusing non-regular output path: ${out}`);
  try {
    atomicWrite(out, renderManifest(fresh), st ? st.mode & 0o777 : 0o644, ".generate-manifest-");
  } catch (e) {
    return fail("failed", `cannot write ${out}: ${errnoCode(e) ?? errorMessage(e)}`);
  }
  ctx.io.stdout(`wrote ${out} (${fresh.files.length} paths, version ${fresh.template_version})\n`);
  return "ok";
}

export default defineCommand({
  meta: {
    name: NAME,
    description: [
      "Build the template's MANIFEST.json: every regular file an ops repository receives (template-side files,",
      "onboarding/, docs/lineage/ and caches excluded), after a frame-hygiene check that no install path names the",
      "authoring repository. `--check` compares the committed manifest instead of writing (CI runs it).",
    ].join("\n"),
  },
  usage: [`${NAME} [--skeleton <dir>] [--out <path>] [--check | --stdout]`],
  args: {
    skeleton: { type: "string", valueHint: "dir", description: "Template skeleton (default: the nearest master-ops/ upwards from here)" },
    out: { type: "string", valueHint: "path", description: "Manifest path (default <skeleton>/MANIFEST.json)" },
    check: { type: "boolean", description: "Exit 1 with a diff when the committed manifest is stale; write nothing" },
    stdout: { type: "boolean", description: "Print the manifest instead of writing it" },
  },
  rules: { exclusive: [["check", "stdout"]] },
  mcp: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  exits: EXITS,
  examples: [`mogui ${NAME} --check`, `mogui ${NAME} --skeleton ./master-ops --stdout`],
  async run({ ctx, args }) {
    const skeleton = args.skeleton ? resolve(ctx.cwd, args.skeleton) : defaultSkeleton(ctx.cwd);
    let isDir = false;
    try {
      isDir = statSync(skeleton).isDirectory();
    } catch {
      /* below */
    }
    if (!isDir) return fail("noSkeleton", `skeleton not a directory: ${skeleton}`);
    const fresh: ManifestDoc = { template_version: readVersion(skeleton), files: installPaths(skeleton) };
    const defects = hygieneDefects(skeleton, fresh.files);
    if (defects.length) return fail("failed", `frame hygiene failed\n${defects.map((d) => `  ${d}`).join("\n")}`);
    const out = args.out ? resolve(ctx.cwd, args.out) : join(skeleton, "MANIFEST.json");
    if (args.check) return check(ctx, out, fresh);
    if (args.stdout) {
      ctx.io.stdout(renderManifest(fresh));
      return "ok";
    }
    return write(ctx, out, fresh);
  },
});
