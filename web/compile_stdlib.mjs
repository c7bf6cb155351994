// Build step (run by web/build.py with node): Python's standard library as the page needs it.
// Pyodide ships the library as source, which every start compiles again; compiled ahead of
// time, the modules a learner's session uses start about twice as fast. Only those are
// compiled (the rest stay source, compiled when used), which keeps the download small.
//
//   node web/compile_stdlib.mjs RUNTIME_DIR WHEELS_DIR OUT_ZIP
import fs from "node:fs";
import path from "node:path";

const [runtime, wheels, out] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(runtime, "pyodide.mjs"));
const py = await loadPyodide({ indexURL: path.resolve(runtime) + "/" });
for (const name of fs.readdirSync(wheels)) {
  py.unpackArchive(new Uint8Array(fs.readFileSync(path.join(wheels, name))), "wheel");
}
py.FS.writeFile("/tmp/stdlib.zip", new Uint8Array(fs.readFileSync(path.join(runtime,
  "python_stdlib.zip"))));
const count = py.runPython(`
import importlib.util, json, marshal, os, sys, tempfile, zipfile
os.environ["PEPPER_TUTOR_HOME"] = tempfile.mkdtemp()
from pepper_tutor.apps.web import WebApp

app = WebApp(seed=1)
for act, value in (("home", ""), ("lesson", "bowers"), ("next", ""), ("quiz", "tricks"),
                   ("pick", "0"), ("quiz", "bid"), ("review", ""), ("progress", ""),
                   ("table-level", "beginner"), ("table", ""), ("play", "a:0"),
                   ("export", "")):
    reply = json.loads(app.handle(act, value))
    if "error" in reply:
        raise SystemExit(reply["error"])
hot = set()
for module in list(sys.modules.values()):
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) or ""
    if ".zip/" in origin and origin.endswith(".py"):
        hot.add(origin.split(".zip/", 1)[1])
source = zipfile.ZipFile("/tmp/stdlib.zip")
with zipfile.ZipFile("/tmp/stdlib-out.zip", "w", zipfile.ZIP_DEFLATED) as target:
    for info in source.infolist():
        data = source.read(info)
        if info.filename in hot:
            code = compile(data, info.filename, "exec", dont_inherit=True)
            # an unchecked hash-based .pyc: the archive never changes under it
            pyc = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8)
            target.writestr(info.filename + "c", pyc + marshal.dumps(code))
        else:
            target.writestr(info, data)
len(hot)
`);
fs.writeFileSync(out, py.FS.readFile("/tmp/stdlib-out.zip"));
console.log(`compiled ${count} modules of the standard library into ${out}`);
