/**
 * What `mogui --version` reports (D36). package.json is the one version source; the commit, target and build date
 * are baked in by scripts/build.ts with `--define` (a run from source has none of them and says so), and the
 * template version is the embedded MANIFEST.json's. Kept import-light: `--version` is the start-up baseline.
 */
import pkg from "../../package.json" with { type: "json" };
import manifest from "../../master-ops/MANIFEST.json" with { type: "json" };

// Replaced by string literals at build time (scripts/build.ts buildDefines); undeclared in a run from source.
declare const __MOGUI_COMMIT__: string | undefined;
declare const __MOGUI_TARGET__: string | undefined;
declare const __MOGUI_BUILD_DATE__: string | undefined;

export const VERSION: string = pkg.version;

export interface VersionInfo {
  version: string;
  commit: string;
  target: string;
  build_date: string;
  template_version: string;
}

/** `<os>-<arch>` of the running process, in release target names (win32 -> windows). */
function hostTarget(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  return `${os}-${process.arch}`;
}

export function versionInfo(): VersionInfo {
  return {
    version: VERSION,
    commit: typeof __MOGUI_COMMIT__ === "string" ? __MOGUI_COMMIT__ : "dev",
    target: typeof __MOGUI_TARGET__ === "string" ? __MOGUI_TARGET__ : hostTarget(),
    build_date: typeof __MOGUI_BUILD_DATE__ === "string" ? __MOGUI_BUILD_DATE__ : "unbuilt",
    template_version: manifest.template_version.replace(/^v/, ""),
  };
}

/** `mogui 0.2.0 (1a2b3c4, linux-x64, 2026-12-02; template 0.5.0)` */
export function versionLine(i: VersionInfo = versionInfo()): string {
  return `mogui ${i.version} (${i.commit}, ${i.target}, ${i.build_date}; template ${i.template_version})`;
}
