/**
 * The small product repository the attack table (test/helpers/attacks.ts) runs against, fresh copies of it, and a
 * hash of a tree: every entry's type, mode, bytes (sha1) or link target, .git included. A product that is gone (moved
 * or deleted with its parent) hashes to a state of its own, so it counts as changed.
 */
import { createHash } from "node:crypto";
import { cpSync, lstatSync, lutimesSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sh } from "./git.ts";
import { tempDir } from "./paths.ts";
import { errnoCode } from "../../src/lib/errors.ts";

const PAST = new Date("2020-01-01T00:00:00Z");

/** Files dated in the past before `git add`, so no index entry is racily clean (`git status` never rewrites it). */
export function settle(dir: string): void {
  for (const n of readdirSync(dir)) {
    if (n === ".git") continue;
    const p = join(dir, n);
    const st = lstatSync(p);
    if (st.isDirectory()) settle(p);
    (st.isSymbolicLink() ? lutimesSync : utimesSync)(p, PAST, PAST);
  }
}

/** A base directory on tmpfs when the host has one (copies and hashes are most of the cost). */
export function attackBase(prefix: string): string {
  try {
    if (statSync("/dev/shm").isDirectory()) return mkdtempSync(`/dev/shm/mogui-${prefix}-`);
  } catch {
    /* no tmpfs */
  }
  return tempDir(`${prefix}-`);
}

/** The golden product at `<dir>/product`: README.md, src/a.ts, package.json, build.sh (0755), readme-link, .git. */
export function makeAttackProduct(dir: string): string {
  const product = join(dir, "product");
  mkdirSync(join(product, "src"), { recursive: true });
  writeFileSync(join(product, "README.md"), "hello product\n");
  writeFileSync(join(product, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(product, "package.json"), '{"name":"product","version":"1.0.0"}\n');
  writeFileSync(join(product, "build.sh"), "#!/bin/sh\necho build\n", { mode: 0o755 });
  symlinkSync("README.md", join(product, "readme-link"));
  settle(product);
  sh(product, "init", "-q", "--template=", "-b", "main");
  sh(product, "config", "core.checkStat", "minimal");
  sh(product, "config", "core.trustctime", "false");
  sh(product, "add", ".");
  sh(product, "commit", "-q", "-m", "init");
  sh(product, "remote", "add", "origin", "/nonexistent/origin.git");
  sh(product, "repack", "-q", "-a", "-d");
  return product;
}

/** A copy of the golden product at `<to>/product` (`<to>` is the product's own parent), and a scratch dir `<to>/../w-<name>`. */
export function copyProduct(golden: string, to: string): string {
  const p = join(to, "product");
  mkdirSync(to, { recursive: true });
  cpSync(golden, p, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  lutimesSync(join(p, "readme-link"), PAST, PAST);
  return p;
}

/** Every entry under dir: path -> type, mode, bytes (sha1) or link target. */
export function treeState(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let root;
  try {
    root = lstatSync(dir);
  } catch {
    out.set("", "MISSING");
    return out;
  }
  if (!root.isDirectory()) {
    out.set("", root.isSymbolicLink() ? `L ${readlinkSync(dir)}` : "NOT A DIRECTORY");
    return out;
  }
  out.set("", `D ${(root.mode & 0o7777).toString(8)} ${root.uid}:${root.gid}`);
  const walk = (d: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch (e) {
      out.set(`${rel}?`, `UNREADABLE ${errnoCode(e)}`);
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      const st = lstatSync(p);
      const r = `${rel}${n}`;
      const own = `${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`;
      // File and link mtimes to the second (a copy keeps them to the millisecond; directories' are not kept).
      const mt = ` t${Math.trunc(st.mtimeMs / 1000)}`;
      if (st.isSymbolicLink()) out.set(r, `L ${readlinkSync(p)}${mt}`);
      else if (st.isDirectory()) {
        out.set(r, `D ${own}`);
        walk(p, `${r}/`);
      } else if (st.isFile()) {
        let h: string;
        try {
          h = createHash("sha1").update(readFileSync(p)).digest("hex");
        } catch (e) {
          h = `UNREADABLE ${errnoCode(e)}`;
        }
        out.set(r, `F ${own} ${st.nlink} ${h}${mt}`);
      } else out.set(r, `S ${own} ${st.mode & 0o170000}`);
    }
  };
  walk(dir, "");
  return out;
}

/** The paths whose state differs between two trees (added, removed or changed). */
export function treeDiff(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).sort();
}
