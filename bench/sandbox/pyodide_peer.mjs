// Pyodide in Node, the runtime browser-based courses use, as a peer of the
// sandbox benchmark. Reads {code, cases, cold, warm} as JSON on stdin and
// prints {cold: [ms], warm: [ms], ok: bool, rssBytes} as JSON on stdout.
//   cold: a fresh interpreter per grading (loadPyodide each time).
//   warm: one interpreter reused, fresh globals per case (submissions could
//         leak into each other through modules, which is why it is fast).
import { loadPyodide } from "pyodide";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";

const req = JSON.parse(readFileSync(0, "utf8"));
const require = createRequire(import.meta.url);
// Load from the package directory, never from a CDN.
const indexURL = join(dirname(require.resolve("pyodide/package.json")), "/");

async function grade(py) {
  let ok = true;
  for (const c of req.cases) {
    let out = "";
    py.setStdin({ stdin: (() => { let done = false; return () => { if (done) return undefined; done = true; return c.stdin; }; })() });
    py.setStdout({ batched: (s) => { out += s + "\n"; } });
    const globals = py.globals.get("dict")();
    try {
      py.runPython(req.code, { globals });
    } catch (e) {
      ok = false;
    } finally {
      globals.destroy();
    }
    if (out.trim() !== c.expected.trim()) ok = false;
  }
  return ok;
}

const res = { cold: [], warm: [], ok: true };
for (let i = 0; i < req.cold; i++) {
  const t = performance.now();
  const py = await loadPyodide({ indexURL });
  res.ok = (await grade(py)) && res.ok;
  res.cold.push(performance.now() - t);
}
const py = await loadPyodide({ indexURL });
await grade(py);
for (let i = 0; i < req.warm; i++) {
  const t = performance.now();
  res.ok = (await grade(py)) && res.ok;
  res.warm.push(performance.now() - t);
}
res.rssBytes = process.memoryUsage().rss;
process.stdout.write(JSON.stringify(res) + "\n");
process.exit(0);
