/**
 * Instance config files: the JSON Schemas are generated from the loaders' valibot schemas, the committed
 * config/*.schema.json match the generator, every config/*.example.json passes its schema (checked by an independent
 * JSON Schema validator) AND its loader, and the instance runtime loader kept every message (§17).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InstanceConfigError, PRODUCT_REPO_PLACEHOLDER, loadInstanceConfig, parseInstanceConfig, requireMasterHostRuntime, requireProductRepo, requireTranscriptGlob } from "../../../src/lib/config/instance.ts";
import { validateSchema } from "../../../src/lib/config/json-schema-check.ts";
import { CONFIG_KINDS, configNames, jsonSchemaFor } from "../../../src/evidence/config/registry.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";
import { errorMessage } from "../../../src/lib/errors.ts";

const CONFIG = join(ROOT, "config");
const read = (f: string) => readFileSync(join(CONFIG, f), "utf8");

describe("config schemas and examples", () => {
  test("three config kinds, each with an example and a committed schema equal to the generated one", () => {
    expect(configNames()).toEqual(["instance-runtime", "model-tier-policy", "workspace-descriptor"]);
    for (const name of configNames()) {
      expect(JSON.parse(read(`${name}.schema.json`))).toEqual(jsonSchemaFor(name));
      expect(read(`${name}.schema.json`)).toBe(`${JSON.stringify(jsonSchemaFor(name), null, 2)}\n`);
    }
  });

  test("every example validates against its JSON Schema and loads through its loader", () => {
    for (const name of configNames()) {
      const text = read(`${name}.example.json`);
      expect({ name, problems: validateSchema(jsonSchemaFor(name), JSON.parse(text)) }).toEqual({ name, problems: [] });
      // The instance-runtime example's product_repo is a placeholder: validate says so (issue 23); the rest loads.
      if (name === "instance-runtime") expect(() => CONFIG_KINDS[name]!.validate(text, `${name}.example.json`)).toThrow(/product_repo is still the example placeholder/);
      else expect(() => CONFIG_KINDS[name]!.validate(text, `${name}.example.json`)).not.toThrow();
    }
  });

  test("instance-runtime: the placeholder is the example's product_repo; any other path validates", () => {
    const ex = JSON.parse(read("instance-runtime.example.json"));
    expect(ex.product_repo).toBe(PRODUCT_REPO_PLACEHOLDER);
    expect(() => CONFIG_KINDS["instance-runtime"]!.validate(JSON.stringify({ ...ex, product_repo: `${PRODUCT_REPO_PLACEHOLDER}/` }), "x.json")).toThrow(/placeholder/);
    expect(() => CONFIG_KINDS["instance-runtime"]!.validate(JSON.stringify({ ...ex, product_repo: "/srv/product" }), "x.json")).not.toThrow();
    expect(() => CONFIG_KINDS["instance-runtime"]!.validate(JSON.stringify({ ...ex, product_repo: null }), "x.json")).not.toThrow();
  });

  test("the schemas reject what the loaders reject (the checker is not vacuous)", () => {
    const bad: [string, unknown][] = [
      ["instance-runtime", { master_host_runtime: 3 }],
      ["instance-runtime", { transcript_globs: { claude: "" } }],
      ["workspace-descriptor", { repositories: [{ name: "a", path: "a", role: "product" }] }],
      ["workspace-descriptor", { workspace_root_is_plain_folder: false }],
      ["workspace-descriptor", { repositories: [{ name: "a", path: "a", role: "qa", prohibited: [] }] }],
      ["model-tier-policy", { version: 2, tiers: {}, fanout_caps: {} }],
      ["model-tier-policy", { version: 2, tiers: { top: ["m"] } }],
      ["model-tier-policy", { version: 2, tiers: { top: ["m"] }, fanout_caps: { unknown: -1 } }],
    ];
    for (const [name, value] of bad) {
      expect({ name, value, problems: validateSchema(jsonSchemaFor(name), value).length > 0 }).toEqual({ name, value, problems: true });
      expect(() => CONFIG_KINDS[name]!.validate(JSON.stringify(value), "x.json")).toThrow();
    }
  });

  test("instance-runtime example: _docs explain all three fields; values per §30.3", () => {
    const ex = JSON.parse(read("instance-runtime.example.json"));
    for (const k of ["master_host_runtime", "transcript_globs", "product_repo"]) expect(ex._docs[k].length).toBeGreaterThan(10);
    expect(ex.master_host_runtime).toBe("claude");
    expect(Object.keys(ex.transcript_globs)).toEqual(["claude", "codex", "grok"]);
    expect(ex.product_repo).toStartWith("/");
  });

  test("model-tier-policy example: v2, unknown capped at 8, top uncapped, consent no (§30.2)", () => {
    const ex = JSON.parse(read("model-tier-policy.example.json"));
    expect(ex).toMatchObject({ version: 2, consent: "no", tiers: { top: [], efficient: [] }, fanout_caps: { unknown: 8 }, window_seconds: 86400 });
    expect(ex.fanout_caps.top).toBeUndefined();
    expect(ex.agents.every((a: { model_ids: string[] }) => Array.isArray(a.model_ids))).toBe(true);
  });
});

describe("instance runtime config loader (§17): messages unchanged after moving onto valibot", () => {
  const msg = (text: string) => {
    try {
      parseInstanceConfig(text, "/x/instance-runtime.json");
      return "ok";
    } catch (e) {
      expect(e).toBeInstanceOf(InstanceConfigError);
      return errorMessage(e);
    }
  };
  test("every error message", () => {
    expect(msg("{")).toStartWith("instance runtime config is not valid JSON: /x/instance-runtime.json: ");
    expect(msg("[]")).toBe("instance runtime config root must be a JSON object: /x/instance-runtime.json");
    expect(msg('{"master_host_runtime": 1}')).toBe("master_host_runtime must be a string or null in the instance runtime config");
    expect(msg('{"product_repo": true}')).toBe("product_repo must be a string or null in the instance runtime config");
    expect(msg('{"transcript_globs": []}')).toBe("transcript_globs must be a JSON object mapping runtime name to glob");
    expect(msg('{"transcript_globs": "x"}')).toBe("transcript_globs must be a JSON object mapping runtime name to glob");
    expect(msg('{"transcript_globs": {" ": "g"}}')).toBe("transcript_globs keys must be non-empty runtime names");
    expect(msg('{"transcript_globs": {"codex": " "}}')).toBe("transcript_globs['codex'] must be a non-empty string glob");
    expect(msg('{"_master_host_runtime": 1, "transcript_globs": {"_c": 3, "claude": "g"}, "master_host_runtime": null}')).toBe("ok");
  });

  test("values: underscore keys dropped, env wins per field, blank env is unset, require* say unconfigured", () => {
    const dir = tempDir();
    const path = join(dir, "ir.json");
    writeFileSync(path, JSON.stringify({ _docs: {}, master_host_runtime: "codex", transcript_globs: { _x: 1, codex: "~/c/*.jsonl" }, product_repo: null }));
    const c = loadInstanceConfig({ env: { MASTER_HOST_RUNTIME: "  ", MOGUI_PRODUCT_REPO: "prod" }, cwd: dir }, path);
    expect(c).toEqual({ masterHostRuntime: "codex", transcriptGlobs: { codex: "~/c/*.jsonl" }, productRepo: join(dir, "prod"), sourcePath: path, configPath: path, transcriptGlobEnvOverride: null });
    expect(requireTranscriptGlob(c)).toBe("~/c/*.jsonl");
    const none = loadInstanceConfig({ env: { MOGUI_HOME: dir }, cwd: dir });
    expect(none.sourcePath).toBeNull();
    expect(() => requireMasterHostRuntime(none)).toThrow(/unconfigured: set MOGUI_MASTER_HOST_RUNTIME/);
    expect(() => requireProductRepo(none)).toThrow(/product repo is unconfigured/);
    expect(() => requireTranscriptGlob(none, "grok")).toThrow(/transcript glob for runtime 'grok' is unconfigured/);
  });
});
