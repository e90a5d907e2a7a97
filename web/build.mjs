// Builds the web table into the Python package that serves it (api/play), or into the
// folder given as the first argument (the drift test builds into a temporary one).
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, "..", "api", "play");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.ts")],
  outfile: join(out, "app.js"),
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "none",
  logLevel: "warning",
});
for (const name of ["index.html", "app.css"]) {
  copyFileSync(join(here, "static", name), join(out, name));
}
