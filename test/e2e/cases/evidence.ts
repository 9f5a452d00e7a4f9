/** End-to-end cases for the evidence family: one row per command (keyed by the family's command names). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FamilyCases } from "./types.ts";
import { ACCEPTANCE_BIN, makeAcceptanceFixture, type AcceptanceFixture } from "../../../fixtures/acceptance/make.ts";
import { e2eEnv } from "../../helpers/binary.ts";
import { makeRepo } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

let acc: AcceptanceFixture | undefined;
const fixture = () => (acc ??= makeAcceptanceFixture({ max_iterations: 1 }));

function accEnv(): Record<string, string> {
  const env = e2eEnv({ FAKE_PROPOSER_PLAN: fixture().plan });
  return { ...env, PATH: `${ACCEPTANCE_BIN}:${env.PATH}` };
}

let ws: { root: string; manifest: string; digest: string } | undefined;
function workspace() {
  if (ws) return ws;
  const root = tempDir("mogui-ws-");
  const f = makeRepo(join(root, "holder"));
  const manifest = join(root, "manifest.json");
  writeFileSync(manifest, JSON.stringify({ workspace_root: f.dir, workspace_identity: "ws-e2e", repositories: [{ path: "repo", identity: "product" }] }));
  mkdirSync(join(root, "digest"));
  const digest = join(root, "digest.json");
  writeFileSync(digest, JSON.stringify({ repos: [{ path: f.repo, name: "product" }], ledger_path: "ledger.jsonl", job_log_globs: [], monitor_pgrep_patterns: [], baseline_path: "baseline.json", digest_dir: "digest" }));
  ws = { root, manifest, digest };
  return ws;
}

const DESCRIPTOR = join(ROOT, "config", "workspace-descriptor.example.json");

export const cases: FamilyCases = {
  "acceptance-loop validate": {
    get argv() {
      return ["acceptance-loop", "validate", "--config", fixture().config, "--json"];
    },
    code: 0,
    stdout: /^\{"holdout":3,"max_iterations":1,"name":"e2e","proposer_runtime":"claude","regression_log":".*regressions\.jsonl","run_dir":".*","scorecard":1,"train":2,"workspace_root":".*\/repo"\}\n$/,
  },
  "acceptance-loop split": {
    get argv() {
      return ["acceptance-loop", "split", "--config", fixture().config, "--output-dir", join(fixture().root, "split")];
    },
    code: 0,
    stdout: /\/split\/split\.json\n$/,
  },
  "acceptance-loop run": {
    get argv() {
      return ["acceptance-loop", "run", "--config", fixture().config];
    },
    code: 1,
    stdout: /^# Acceptance Report: e2e\n[\s\S]*- Iteration 1: rejected `iter-001`\n[\s\S]*NO_PASS_COUNT_INCREASE/,
    env: accEnv,
  },
  "acceptance-loop inspect": {
    get argv() {
      return ["acceptance-loop", "inspect", "--run-dir", join(tempDir(), "no-run")];
    },
    code: 2,
    stdout: /^$/,
  },
  "approval classify": { argv: ["approval", "classify", "--writes-shared", "--json"], code: 0, stdout: /^\{"action":\{.*\},"gate":"G2_SHARED_STATE","requires_human":true\}\n$/ },
  "context resolve": {
    get argv() {
      return ["context", "resolve", join(workspace().root, "holder", "repo"), "--manifest", workspace().manifest, "--json"];
    },
    code: 0,
    stdout: /"kind":"git-repo".*"repository_identity":"product"/,
  },
  "workspace-descriptor-check": {
    argv: ["workspace-descriptor-check", "--path", "example-product", "--action", "force-push", "--config", DESCRIPTOR],
    code: 1,
    stdout: /^PROHIBITED: action=force-push repo=example-product path=example-product\n$/,
  },
  "config schema": { argv: ["config", "schema", "workspace-descriptor", "--json"], code: 0, stdout: /^\{"\$schema":"https:\/\/json-schema\.org\/draft\/2020-12\/schema".*"prohibited"/ },
  "config validate": {
    // The instance-runtime example's product_repo is a placeholder, invalid by design (issue 23).
    argv: ["config", "validate", "workspace-descriptor", "--file", join(ROOT, "config", "workspace-descriptor.example.json")],
    code: 0,
    stdout: /^valid: workspace-descriptor: .*workspace-descriptor\.example\.json\n$/,
  },
  "config init": {
    argv: ["config", "init"],
    code: 0,
    stdout: /^wrote \/.*\/config\/instance-runtime\.json\nwrote .*worker-surface-policy\.json\nwrote .*model-tier-policy\.json\nwrote .*workspace-descriptor\.json\n$/,
    env: () => e2eEnv({ MOGUI_HOME: tempDir() }),
  },
  "config example": { argv: ["config", "example", "brief-template"], code: 0, stdout: /^# Brief: [\s\S]*\[AC1\] \(D1\)/ },
  "l1-digest tick": {
    get argv() {
      return ["l1-digest", "tick", "--config", workspace().digest];
    },
    code: 0,
    stdout: /^# L1 Digest\n\nGenerated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n\n## Unexplained\n- None\n[\s\S]*- \[expected\] product baseline bootstrap: head=[0-9a-f]{40} dirty=false\n/,
  },
  "adapter doctor": { argv: ["adapter", "doctor", "--json"], code: 0, stdout: /^\{"missing":\[.*\],"present":\[.*"git".*\],"results":\[/ },
  // The group rows: --help lists the subcommands (exit 0); a flag before the subcommand is the subcommand's.
  "acceptance-loop": { argv: ["acceptance-loop", "--help"], code: 0, stdout: /validate[\s\S]*split[\s\S]*run[\s\S]*inspect/ },
  approval: { argv: ["approval", "--json", "classify", "--read-only"], code: 0, stdout: /"gate":"G0_READ_ONLY"/ },
  context: { argv: ["context", "--help"], code: 0, stdout: /resolve/ },
  config: { argv: ["config", "--help"], code: 0, stdout: /schema[\s\S]*validate[\s\S]*init[\s\S]*example/ },
  "l1-digest": { argv: ["l1-digest", "--help"], code: 0, stdout: /tick/ },
  adapter: { argv: ["adapter", "--help"], code: 0, stdout: /doctor/ },
};
