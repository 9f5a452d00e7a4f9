// Issue 17 §3: the downloaded binary alone onboards a workspace. The complete worker walkthrough of docs/workers.md
// runs from an empty directory with only a copy of dist/mogui on PATH (plus /usr/bin:/bin for sh and git): the
// config examples, the brief template and the herdr simulator all come out of the binary. As root, the source
// repository is an empty tmpfs inside a mount namespace while it runs, so no file of it can be read.
import { expect, test } from "bun:test";
import { runWalkthrough, walkthroughs } from "../helpers/walkthrough.ts";

test("the worker walkthrough of docs/workers.md runs from a copy of the binary alone", async () => {
  const [w] = walkthroughs("docs/workers.md");
  expect(w).toBeDefined();
  expect(w!.lines.join("\n")).toContain("mogui worker spawn");
  const r = await runWalkthrough(w!, { alone: true });
  for (const n of r.notes) console.warn(`binary-alone: ${n}`);
  if (r.code !== 0) console.error(r.out.split("\n").slice(-40).join("\n"));
  expect(r.code).toBe(0);
  expect(r.out).toContain("mogui worker collect --owner orch-a --execute");
});
