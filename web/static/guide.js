// The docs site's guide page: a hand carried in the address (#hand=...&step=N&seat=S), or
// pasted here, shown by the viewer (viewer.js). Python (worker.js, in its guide mode: no
// learner files) turns the record into the guide's steps; nothing here knows a rule.
const root = document.getElementById("pg");
const loading = document.getElementById("pg-loading");
const statusLine = document.getElementById("pg-status");
const bar = document.getElementById("pg-bar");
const problem = document.getElementById("pg-problem");
const form = document.getElementById("pg-open");
const worker = new Worker("worker.js?guide", { type: "module" });
// The Play and learn page's service worker keeps what this page fetched: opened once, a
// guide link opens again offline.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});
let nextId = 1;
const waiting = new Map();
window.pepper = { ready: false };

// Another hand or seat in the address (a link followed in this tab): open it afresh.
const shown = () => location.hash.replace(/(^#|&)step=[^&]*/g, "");
let opened = shown();
window.addEventListener("hashchange", () => {
  if (window.pepperGuide && shown() !== opened) location.reload();
});

function ask(act, value, fields = {}) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.postMessage({ id, act, value, fields });
  });
}

function fail(text) {
  loading.hidden = true;
  problem.hidden = false;
  problem.textContent = text;
  form.hidden = false;
}

function show(reply) {
  if (reply.error) { fail(reply.error); return; }
  if (reply.hand) {
    const seat = document.getElementById("pg-seat").value;
    history.replaceState(null, "", `#hand=${reply.hand}${seat ? "&seat=" + seat : ""}&step=1`);
    opened = shown();
  }
  window.pepperGuide = window.PepperGuide.start(root, reply.guide);
  window.pepper.ready = true;
}

worker.onmessage = async (ev) => {
  const msg = ev.data;
  if (msg.type === "progress") {
    statusLine.textContent = msg.text;
    bar.value = Math.round(msg.fraction * 100);
  } else if (msg.type === "failed") {
    fail(`The page could not start: ${msg.text}`);
  } else if (msg.type === "guide-ready") {
    if (/(^#|&)hand=/.test(location.hash)) show(await ask("guide-link", location.hash));
    else { loading.hidden = true; form.hidden = false; window.pepper.ready = true; }
  } else if (msg.type === "reply") {
    const done = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (done) done(msg);
  }
};

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const file = document.getElementById("pg-file").files[0];
  const text = file ? await file.text() : document.getElementById("pg-text").value;
  problem.hidden = true;
  show(await ask("guide-text", text, { seat: document.getElementById("pg-seat").value }));
});
