// Builds the browser bundles from static/src into static/dist with esbuild.
// Run by "make setup" (and so by "make run" and "make test"); the output is
// embedded into the Go binary and is not committed.
import { build } from "esbuild";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const entries = readdirSync(join(here, "src"))
  .filter((f) => f.endsWith(".js"))
  .map((f) => join(here, "src", f));

const started = Date.now();
await build({
  entryPoints: entries,
  outdir: join(here, "dist"),
  bundle: true,
  format: "esm",
  minify: true,
  target: ["es2020"],
  legalComments: "none",
  logLevel: "warning",
});
console.log(`assets: built ${entries.length} bundle(s) into static/dist in ${Date.now() - started} ms`);
