import { defineMoguiCommand } from "../src/lib/command.ts";
export default defineMoguiCommand({
  meta: { name: "demo", description: "placeholder" },
  usage: ["demo"],
  args: {},
  async run() {
    return 0;
  },
});
