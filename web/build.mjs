// Builds the web table into the Python package that serves it (api/play), or into the
// folder given as the first argument (the drift test builds into a temporary one): the
// bundled script, the page and its styles, and the page's catalogs under locales/.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
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
for (const name of ["index.html", "app.css", "sw.js"]) {
  copyFileSync(join(here, "static", name), join(out, name));
}
// The page's catalogs (French, German), read by the page in its language only.
mkdirSync(join(out, "locales"), { recursive: true });
for (const name of readdirSync(join(here, "src", "locales"))) {
  copyFileSync(join(here, "src", "locales", name), join(out, "locales", name));
}
