// Regenerates src/ops-repo/template/embedded.gen.ts from master-ops/ (the template the binary carries as its default
// --template). `--check` exits 1 when the committed file is stale instead of writing it.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderEmbedded } from "../src/ops-repo/template/embed-render.ts";

const root = join(import.meta.dir, "..");
const out = join(root, "src", "ops-repo", "template", "embedded.gen.ts");
const fresh = renderEmbedded(join(root, "master-ops"));
let current = "";
try {
  current = readFileSync(out, "utf8");
} catch {
  /* first run */
}
if (process.argv.includes("--check")) {
  if (current !== fresh) {
    console.error("src/ops-repo/template/embedded.gen.ts is stale; run: ./node_modules/.bin/bun scripts/gen-embedded-template.ts");
    process.exitCode = 1;
  }
} else if (current !== fresh) {
  writeFileSync(out, fresh);
  console.error("wrote src/ops-repo/template/embedded.gen.ts");
}
