// Python in a Web Worker, so the page never freezes while it thinks. It installs the wheels
// listed in manifest.json, keeps the learner's files in IndexedDB (IDBFS, saved after every
// reply) and hands each message of the page to pepper_tutor.apps.web.WebApp.handle.
import { loadPyodide } from "./__PYODIDE__/pyodide.mjs";

const HOME = "/home/pyodide/pepper-tutor";
// Python's compiled modules, kept in IndexedDB too: a warm start compiles no module of the
// wheels again (a new build's files are newer, and compiled anew).
const PYCACHE = "/home/pyodide/pycache";
let pyodide = null;
let app = null;
let keeping = true; // false when this browser cannot keep files (IndexedDB refused)
let queue = Promise.resolve();
const started = performance.now();
const stages = {}; // how long each part of the start took, in ms since the worker began
const mark = (name) => { stages[name] = Math.round(performance.now() - started); };

const post = (msg) => self.postMessage(msg);
// worker.js?guide: the game guide page (guide.js) opens no learner files and saves nothing.
const GUIDE = new URL(self.location.href).searchParams.has("guide");

function sync(populate) {
  return new Promise((resolve, reject) =>
    pyodide.FS.syncfs(populate, (err) => (err ? reject(err) : resolve())));
}

async function save() {
  if (!keeping) return;
  try {
    await sync(false);
  } catch (err) {
    post({ type: "storage", text: "Your progress could not be saved in this browser " +
           `(${err.message || err}). Download your progress file to keep it.` });
  }
}

async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function boot() {
  const manifest = await (await fetch("manifest.json", { cache: "no-cache" })).json();
  post({ type: "progress", fraction: 0.05,
         text: `Starting Python (about ${manifest.download_mb} MB the first time, then kept ` +
               "in this browser)…" });
  pyodide = await loadPyodide({ indexURL: new URL(manifest.pyodide, self.location).href });
  mark("python");
  const wheels = manifest.wheels;
  for (let i = 0; i < wheels.length; i++) {
    post({ type: "progress", fraction: 0.6 + 0.3 * (i / wheels.length),
           text: `Installing pepper-tutor and its packages (${i + 1} of ${wheels.length}: ` +
                 `${wheels[i].name.split("-")[0]})…` });
    pyodide.unpackArchive(await fetchBytes(wheels[i].url), "wheel");
  }
  // Unpacked files are dated now; dated by the build instead, the modules compiled at the
  // last visit (kept in PYCACHE) stay valid until a new build replaces them.
  pyodide.runPython(`import os, site
when = ${parseInt(manifest.build.slice(0, 7), 16)}
for folder in site.getsitepackages():
    for top, _, names in os.walk(folder):
        for name in names:
            os.utime(os.path.join(top, name), (when, when))`);
  pyodide.FS.writeFile("/tmp/precomposed.bin", await fetchBytes(manifest.precomposed));
  mark("wheels");
  if (GUIDE) {
    pyodide.runPython(`from pepper_tutor.files.yamlpos import use_precomposed
with open("/tmp/precomposed.bin", "rb") as f:
    use_precomposed(f.read())`);
    post({ type: "guide-ready" });
    return;
  }
  post({ type: "progress", fraction: 0.92, text: "Opening your progress…" });
  pyodide.FS.mkdirTree(HOME);
  pyodide.FS.mkdirTree(PYCACHE);
  try {
    pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, HOME);
    pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, PYCACHE);
    await sync(true);
  } catch (err) {
    keeping = false;
    post({ type: "storage", text: "This browser does not let the page keep your progress " +
           `(${err.message || err}): it lasts until you close the tab. Download your ` +
           "progress file to keep it." });
  }
  pyodide.runPython(`import importlib, os, sys
sys.pycache_prefix = ${JSON.stringify(PYCACHE)}
sys.dont_write_bytecode = False
importlib.invalidate_caches()
os.environ["PEPPER_TUTOR_HOME"] = ${JSON.stringify(HOME)}
from pepper_tutor.files.yamlpos import use_precomposed
with open("/tmp/precomposed.bin", "rb") as f:
    use_precomposed(f.read())`);
  mark("storage");
  stages.kept = pyodide.runPython(`sum(len(f) for _, _, f in os.walk(sys.pycache_prefix))`);
  const seed = new URL(self.location.href).searchParams.get("seed");
  const WebApp = pyodide.pyimport("pepper_tutor.apps.web").WebApp;
  app = seed && /^\d+$/.test(seed) ? WebApp.callKwargs({ seed: Number(seed) }) : WebApp();
  mark("import");
  const first = JSON.parse(app.handle("home"));
  mark("home");
  post({ type: "reply", id: 0, stages, ...first });
  await save();
  post({ type: "saved", id: 0 });
}

async function handle(msg) {
  let value = msg.value;
  const fields = { ...(msg.fields || {}) };
  if (msg.act === "import") {
    value = "/tmp/pepper-upload.sqlite";
    pyodide.FS.writeFile(value, new Uint8Array(msg.bytes));
    fields.name = msg.name;
  }
  const pyFields = pyodide.toPy(fields);
  let text;
  try {
    text = app.handle(msg.act, value, pyFields);
  } finally {
    pyFields.destroy();
  }
  // Shown first, then saved: the next message waits for the save (the queue below). The
  // coach's work on a decision not yet made changes no file: nothing to save.
  post({ type: "reply", id: msg.id, ...JSON.parse(text) });
  if (msg.act === "coach-foresee") return;
  await save();
  post({ type: "saved", id: msg.id });
}

const booted = boot().catch((err) => {
  post({ type: "failed", text: String(err.message || err) });
  throw err;
});

function guideReply(msg) {
  const guides = pyodide.pyimport("pepper_tutor.render.guide_html");
  const text = msg.act === "guide-text"
    ? guides.guide_for_text(msg.value, (msg.fields && msg.fields.seat) || "")
    : guides.guide_for_link(msg.value);
  post({ type: "reply", id: msg.id, ...JSON.parse(text) });
}

self.onmessage = (ev) => {
  if (GUIDE) {
    queue = queue.then(() => booted).then(() => guideReply(ev.data)).catch((err) =>
      post({ type: "reply", id: ev.data.id, error: String(err.message || err) }));
    return;
  }
  // One message at a time, in order: each answer is saved before the next is handled.
  queue = queue.then(() => booted).then(() => handle(ev.data)).catch((err) =>
    post({ type: "reply", id: ev.data.id, error: String(err), saved: false, ms: 0,
           html: `<div class="pepper-error" role="alert"><b>Something went wrong:</b> ${
             String(err.message || err).replace(/[&<>]/g, "")}</div>` }));
};
