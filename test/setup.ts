// Preloaded by bunfig.toml for every `bun test` run.
import { afterAll } from "bun:test";
import { removeTempRoot } from "./helpers/paths.ts";

afterAll(removeTempRoot);
