/**
 * The files a workspace needs that live in the source repository, carried by the binary (issue 17 §3): the
 * instance config examples `mogui config init` writes into $MOGUI_HOME/config/, the worker brief template and the
 * pre-push hook. Text imports: the bundler embeds the committed files byte for byte, so they cannot drift.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import briefTemplate from "../../../fixtures/worker/brief-template.md" with { type: "text" };
import prePush from "../../../scripts/git-hooks/pre-push" with { type: "text" };
import instanceRuntime from "../../../config/instance-runtime.example.json" with { type: "text" };
import tierPolicy from "../../../config/model-tier-policy.example.json" with { type: "text" };
import surfacePolicy from "../../../config/worker-surface-policy.example.json" with { type: "text" };
import descriptor from "../../../config/workspace-descriptor.example.json" with { type: "text" };
import { errnoCode } from "../../lib/errors.ts";

export interface Example {
  name: string;
  /** The instance file under $MOGUI_HOME/config/ that `config init` writes; absent = printed or written on request. */
  configFile?: string;
  mode: number;
  what: string;
  text: string;
}

const t = (x: unknown) => x as string;

export const EXAMPLES: readonly Example[] = [
  { name: "instance-runtime", configFile: "instance-runtime.json", mode: 0o644, what: "the master's runtime, transcript globs, product checkout", text: t(instanceRuntime) },
  { name: "worker-surface-policy", configFile: "worker-surface-policy.json", mode: 0o644, what: "surfaces and their T class for `mogui worker`", text: t(surfacePolicy) },
  { name: "model-tier-policy", configFile: "model-tier-policy.json", mode: 0o644, what: "model tiers and fan-out caps for the dispatch gate", text: t(tierPolicy) },
  { name: "workspace-descriptor", configFile: "workspace-descriptor.json", mode: 0o644, what: "the workspace's repositories and their prohibited actions", text: t(descriptor) },
  { name: "brief-template", mode: 0o644, what: "the worker brief template (`mogui worker brief-lint` checks a filled copy)", text: t(briefTemplate) },
  { name: "pre-push", mode: 0o755, what: "the git pre-push hook that runs `mogui redaction-scan` on what a push adds", text: t(prePush) },
];

export const exampleNames = () => EXAMPLES.map((e) => e.name);
export const findExample = (name: string) => EXAMPLES.find((e) => e.name === name);

export interface InitResult {
  written: string[];
  kept: string[];
}

/** Writes every instance example into `dir`, never replacing a file that exists. */
export function writeInstanceExamples(dir: string): InitResult {
  const out: InitResult = { written: [], kept: [] };
  for (const e of EXAMPLES) {
    if (!e.configFile) continue;
    const path = join(dir, e.configFile);
    (writeExample(e, path) ? out.written : out.kept).push(path);
  }
  return out;
}

/** Writes one example to `path`, never over an existing file (O_EXCL: no check-then-write race); false = it exists. */
export function writeExample(e: Example, path: string): boolean {
  try {
    writeFileSync(path, e.text, { flag: "wx", mode: e.mode });
    return true;
  } catch (err) {
    if (errnoCode(err) === "EEXIST") return false;
    throw err;
  }
}
