// The page: it shows what Python (in worker.js) returns, and sends Python what the learner
// clicked or typed. No rule and no answer lives here.
const view = document.getElementById("pepper-view");
const loading = document.getElementById("pepper-loading");
const statusLine = document.getElementById("pepper-status");
const bar = document.getElementById("pepper-load-bar");
const busy = document.getElementById("pepper-busy");
const storage = document.getElementById("pepper-storage");
const sayRegion = document.getElementById("pepper-say");

let worker = null;
let nextId = 1;
const waiting = new Map();
// What the bench and the tests read: how long each reply took.
// saved: the last reply whose changes are in the browser's storage.
// refined: each surer grade of the last decision that came in the background (see work).
// ahead: the coach's work on the decision in front, as the last reply left it (the deals
// its grades rest on so far, and whether more is to come; see background); foresee:
// whether the page asks for that work (the bench turns it off to compare); worked: how
// long Python took over each piece of the background work (a click waits for one at most).
// heard: every text the live region was given, in order.
window.pepper = { timings: [], ready: false, startMs: null, offline: null, said: [], sent: 0,
                  saved: -1, refined: [], ahead: { deals: 0, more: false, at: 0 },
                  foresee: true, worked: [], heard: [] };

function say(text, fraction) {
  statusLine.textContent = text;
  window.pepper.said.push(text);
  if (fraction !== undefined) bar.value = Math.round(fraction * 100);
}

function warnStorage(text) {
  storage.hidden = false;
  storage.textContent = text;
}

async function offlineCopy() {
  // The service worker keeps the page and the runtime, so the next visit needs no network.
  if (!("serviceWorker" in navigator)) return "this browser keeps no offline copy of the page";
  try {
    await navigator.serviceWorker.register("sw.js");
    if (!navigator.serviceWorker.controller) {
      // The first visit: wait until it controls the page, so the runtime it fetches is kept.
      await new Promise((resolve) => {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
        setTimeout(resolve, 5000);
      });
    }
    return null;
  } catch (err) {
    return `no offline copy of the page (${err.message || err})`;
  }
}

// A lesson step's whole hand (a guide in a frame) stays at the step the learner stepped it to
// when Python draws the step again (an answer, a hint): the same guide reopens there.
function guideSteps() {
  const at = new Map();
  for (const frame of view.querySelectorAll("iframe.pepper-guide-frame")) {
    const guide = frame.contentWindow && frame.contentWindow.pepperGuide;
    if (guide) at.set(frame.getAttribute("srcdoc"), guide.step);
  }
  return at;
}

function keepGuideSteps(at) {
  for (const frame of view.querySelectorAll("iframe.pepper-guide-frame")) {
    const step = at.get(frame.getAttribute("srcdoc"));
    if (step === undefined) continue;
    frame.addEventListener("load", () => {
      const guide = frame.contentWindow.pepperGuide;
      if (guide && guide.step !== step) guide.show(step, false);
    }, { once: true });
  }
}

// The live region says each reply's words once: emptied, then filled a moment later, so
// the same words twice in a row are said twice.
let sayTimer = null;
function announce(text) {
  sayRegion.textContent = "";
  clearTimeout(sayTimer);
  if (!text) return;
  window.pepper.heard.push(text);
  sayTimer = setTimeout(() => { sayRegion.textContent = text; }, 50);
}

// The element that had the focus, found again in the new screen: the same id, or the same
// act and value; else the command line where the screen has one.
function focusKey(el) {
  if (!el || !view.contains(el)) return null;
  if (el.closest(".pepper-command")) return "#pepper-command";
  if (el.id) return `#${CSS.escape(el.id)}`;
  if (el.dataset && el.dataset.act) {
    return `[data-act="${CSS.escape(el.dataset.act)}"][data-value="${
      CSS.escape(el.dataset.value || "")}"]`;
  }
  return null;
}

function refocus(key) {
  if (key === null) return;
  const again = view.querySelector(key);
  const target = again && !again.disabled ? again : view.querySelector("#pepper-command");
  if (target) target.focus();
}

function show(reply, key = null) {
  const guides = guideSteps();
  view.innerHTML = reply.html;
  keepGuideSteps(guides);
  const look = reply.look || [];
  document.documentElement.classList.toggle("pepper-large", look.includes("large"));
  document.documentElement.classList.toggle("pepper-four", look.includes("four"));
  refocus(key);
  announce(reply.say);
  if (reply.download) {
    const bytes = Uint8Array.from(atob(reply.download.base64), (c) => c.charCodeAt(0));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], { type: "application/vnd.sqlite3" }));
    link.download = reply.download.name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }
  if (reply.error) console.error(reply.error);
  const focus = view.querySelector(".pepper-feedback .pepper-fb, .pepper-coach .pepper-fb");
  if (focus) focus.scrollIntoView({ block: "nearest" });
}

function send(act, value = "", fields = {}, extra = {}, transfer = []) {
  const key = focusKey(document.activeElement);
  const id = nextId++;
  window.pepper.sent = id;
  const started = performance.now();
  view.inert = true;
  view.setAttribute("aria-busy", "true");
  const slow = setTimeout(() => { busy.hidden = false; }, 250);
  return new Promise((resolve) => {
    waiting.set(id, (reply) => {
      clearTimeout(slow);
      busy.hidden = true;
      view.inert = false;
      view.removeAttribute("aria-busy");
      window.pepper.timings.push({ act, ms: performance.now() - started, python: reply.ms,
                                   start: started });
      show(reply, key);
      background(reply);
      resolve(reply);
    });
    worker.postMessage({ id, act, value: String(value), fields, ...extra }, transfer);
  });
}
window.pepper.send = (act, value, fields) => send(act, value, fields);

// The coach's work while the learner looks, one piece a message, asked only while no message
// of the learner's waits (the worker runs one at a time, so a click waits for one piece at
// most): first the grade of the last decision made surer over more deals, put in place of
// the coach box alone, so nothing else on the page moves; then the decision in front
// graded before it is made, so its grade over the most deals is ready at the click. Each
// reply says what is left; the reply of a click starts again where it graded.
function background(reply) {
  window.pepper.ahead = { deals: reply.ahead || 0, more: !!reply.foresee, at: performance.now() };
  if (reply.refine) work("coach-refine");
  else if (reply.foresee && window.pepper.foresee) work("coach-foresee");
}

function work(act) {
  if (waiting.size) return;
  const id = nextId++;
  waiting.set(id, (reply) => {
    if (reply.error) console.error(reply.error);
    window.pepper.worked.push({ act, python: reply.ms });
    if (act === "coach-refine") {
      window.pepper.refined.push({ deals: reply.deals || 0, at: performance.now(),
                                   python: reply.ms });
      const box = view.querySelector(".pepper-coach");
      if (reply.coach && box) box.innerHTML = reply.coach;
      // said only when the grade changed (once): the first grade was said with the decision
      if (reply.say) announce(reply.say);
    }
    background(reply);
  });
  worker.postMessage({ id, act, value: "", fields: {} });
}

view.addEventListener("click", (ev) => {
  const el = ev.target.closest("button[data-act]");
  if (!el || el.disabled || el.type === "submit") return;
  ev.preventDefault();
  send(el.dataset.act, el.dataset.value || "");
});
view.addEventListener("submit", (ev) => {
  const form = ev.target.closest("form[data-act]");
  if (!form) return;
  ev.preventDefault();
  send(form.dataset.act, "", Object.fromEntries(new FormData(form)));
});
view.addEventListener("change", async (ev) => {
  const el = ev.target;
  if (!el.dataset || !el.dataset.act) return;
  if (el.type === "file") {
    const file = el.files[0];
    if (!file) return;
    const bytes = await file.arrayBuffer();
    send(el.dataset.act, "", {}, { bytes, name: file.name }, [bytes]);
  } else if (el.type === "checkbox") {
    send(el.dataset.act, el.checked ? "on" : "off");
  } else {
    send(el.dataset.act, el.value);
  }
});

// "/" jumps to the command line, from anywhere but a field being typed in.
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "/" || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const tag = (ev.target && ev.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const line = view.querySelector("#pepper-command");
  if (!line) return;
  ev.preventDefault();
  line.focus();
});

function boot() {
  return new Promise((resolve) => {
    // ?seed=N deals the same questions and hands again (as --seed does in the terminal).
    worker = new Worker(`worker.js${location.search}`, { type: "module" });
    worker.onmessage = (ev) => {
      const msg = ev.data;
      if (msg.type === "progress") say(msg.text, msg.fraction);
      else if (msg.type === "storage") warnStorage(msg.text);
      else if (msg.type === "saved") window.pepper.saved = msg.id;
      else if (msg.type === "failed") {
        say(`The page could not start: ${msg.text}`);
        loading.classList.add("pepper-failed");
      } else if (msg.type === "reply") {
        if (msg.id === 0) {
          loading.hidden = true;
          view.hidden = false;
          window.pepper.ready = true;
          window.pepper.startMs = performance.now();
          window.pepper.stages = msg.stages;
          show(msg);
          resolve();
          return;
        }
        const done = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (done) done(msg);
      }
    };
    worker.onerror = (ev) => say(`The page could not start: ${ev.message || "the worker failed"}`);
  });
}

async function start() {
  say("Loading the page…", 0.02);
  window.pepper.offline = await offlineCopy();
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  if (!navigator.locks) return boot();
  // One tab at a time: two tabs would each keep their own copy of the progress and the last
  // to save would undo the other's answers.
  await navigator.locks.request("pepper-tutor-progress", { ifAvailable: true }, async (lock) => {
    if (lock) {
      await boot();
      return new Promise(() => {}); // held while this tab is open
    }
    say("pepper-tutor is open in another tab of this browser: use that one, or close it and " +
        "this page starts.");
    navigator.locks.request("pepper-tutor-progress", async () => {
      await boot();
      return new Promise(() => {});
    });
    return null;
  });
}

start();
