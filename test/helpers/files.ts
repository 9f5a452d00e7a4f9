// Small file trees for tests that build a template, an ops repository or a workspace on disk.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Writes `text` at `dir/rel`, creating the parent directories. */
export function put(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** Writes every `rel -> text` of `files` under `dir`; returns `dir`. */
export function writeTree(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) put(dir, rel, text);
  return dir;
}

/** Every .ts file under `dir`, recursively (the hygiene tests read src/ and commands/). */
export function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}
