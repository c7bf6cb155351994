// Pepper game night: post forms, refresh the parts of the page a server event names.
// Written for this app; no library, no request to any other host.
(function () {
  "use strict";
  var csrf = (document.querySelector('meta[name="csrf"]') || {}).content || "";

  function parts(name) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-part]"), function (el) {
      return !name || (el.dataset.on || "").split(" ").indexOf(name) >= 0 || el.dataset.part === name;
    });
  }

  function dirty(el) { return !!el.querySelector('form[data-dirty="1"]'); }

  function sheetVersion() {
    var el = document.querySelector("[data-sheet-version]");
    return el ? el.dataset.sheetVersion : null;
  }

  function syncVersions() {
    var v = sheetVersion();
    if (v === null) return;
    document.querySelectorAll("form[data-sheet-form]").forEach(function (f) {
      if (f.dataset.dirty !== "1" && f.elements.version) f.elements.version.value = v;
    });
  }

  function refresh(el) {
    return fetch("/part/" + el.dataset.part, {credentials: "same-origin", headers: {Accept: "text/html"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) return;
        if (dirty(el)) { syncVersions(); return; }  // never wipe what someone is typing
        el.innerHTML = html;
        el.dataset.loaded = "1";
        setup(el);
        syncVersions();
      })
      .catch(function () { document.body.classList.add("offline"); });  // retried on reconnect
  }

  function refreshAll(name) { return Promise.all(parts(name).map(refresh)); }

  function message(form, text, ok) {
    var box = form.nextElementSibling;
    while (box && !box.classList.contains("msg")) box = box.nextElementSibling;
    if (!box) box = form.parentElement.querySelector(".msg");
    if (!box) return;
    box.textContent = text || "";
    box.classList.toggle("ok", !!ok);
    box.classList.toggle("err", !ok);
    box.setAttribute("role", ok ? "status" : "alert");
  }

  function answerOf(form) {
    if (form.dataset.join !== undefined) {
      var picked = Array.prototype.filter.call(form.querySelectorAll('input[name="' + form.dataset.join + '"]'),
        function (c) { return c.checked; }).map(function (c) { return c.value; });
      form.elements.answer.value = picked.join(" ");
    }
    if (form.dataset.score !== undefined) {
      form.elements.answer.value = form.dataset.score.split(" ").map(function (side) {
        return side + " " + (form.elements["side_" + side].value || "0");
      }).join(" ");
    }
  }

  function submit(form, submitter) {
    answerOf(form);
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var body = new URLSearchParams();
    data.forEach(function (v, k) { if (typeof v === "string" && k !== "card" && k.indexOf("side_") !== 0) body.append(k, v); });
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; });
    return fetch(form.getAttribute("action"), {
      method: "POST", credentials: "same-origin", body: body,
      headers: {"Accept": "application/json", "X-CSRF-Token": csrf,
                "Content-Type": "application/x-www-form-urlencoded"}
    }).then(function (r) {
      return r.json().catch(function () { return {ok: false, message: "The server answered " + r.status + "."}; })
        .then(function (j) { return [r, j]; });
    }).then(function (rj) {
      var r = rj[0], j = rj[1];
      buttons.forEach(function (b) { b.disabled = b.dataset.wasDisabled === "1"; });
      message(form, j.message, j.ok);
      if (j.html !== undefined && form.dataset.target) document.getElementById(form.dataset.target).innerHTML = j.html;
      if (j.ok && j.reset) { form.reset(); delete form.dataset.dirty; }
      if (r.status === 409 && j.version !== undefined) {
        form.dataset.dirty = "1";  // keep what was typed: the part is not redrawn under it
        return refreshAll("sheet").then(function () {
          if (form.elements.version) form.elements.version.value = j.version;
          var entry = form.closest(".entry");
          var number = entry && entry.querySelector("[data-next-hand]");
          var dealer = entry && entry.querySelector("[data-next-dealer]");
          if (number && j.next_hand) number.textContent = j.next_hand;
          if (dealer && j.next_dealer) dealer.textContent = j.next_dealer;
          message(form, j.message, false);
        });
      }
      if (j.ok && !form.dataset.target) delete form.dataset.dirty;
      var more = (form.dataset.refresh || "").split(" ").filter(Boolean);
      if (form.hasAttribute("data-sheet-form") && j.ok) more.push("sheet");
      var home = form.closest("[data-part]");
      return Promise.all(more.map(refreshAll)).then(function () {
        if (!j.ok) return;
        if (form.isConnected) { message(form, j.message, true); return; }
        var where = home && home.querySelector(".msg");
        if (where && j.message) {
          where.textContent = j.message;
          where.classList.add("ok");
          where.classList.remove("err");
          where.setAttribute("role", "status");
        }
      });
    }).catch(function () {
      buttons.forEach(function (b) { b.disabled = b.dataset.wasDisabled === "1"; });
      message(form, "No answer from the game-night server: check the Wi-Fi and try again.", false);
    });
  }

  function setup(root) {
    root.querySelectorAll("form[data-post]").forEach(function (form) {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      form.addEventListener("submit", function (ev) { ev.preventDefault(); submit(form, ev.submitter); });
      form.addEventListener("input", function () { form.dataset.dirty = "1"; });
      form.addEventListener("change", function () { form.dataset.dirty = "1"; });
      if (form.dataset.rank !== undefined) rankPicker(form);
    });
    root.querySelectorAll("input[type=file][data-fill]").forEach(function (input) {
      input.addEventListener("change", function () {
        var file = input.files && input.files[0];
        if (!file) return;
        file.text().then(function (text) { input.form.elements[input.dataset.fill].value = text; });
      });
    });
  }

  function rankPicker(form) {
    var order = [];
    var shown = form.querySelector("[data-order]");
    function show() {
      form.elements.answer.value = order.join(" ");
      form.querySelectorAll("[data-rank-card]").forEach(function (b) {
        b.disabled = order.indexOf(b.dataset.rankCard) >= 0;
      });
      shown.textContent = order.length ? order.map(function (c) {
        return form.querySelector('[data-rank-card="' + c + '"]').dataset.label;
      }).join(" ") : "(tap the highest card first)";
    }
    form.querySelectorAll("[data-rank-card]").forEach(function (b) {
      b.addEventListener("click", function () { order.push(b.dataset.rankCard); show(); });
    });
    form.querySelector("[data-rank-undo]").addEventListener("click", function () { order.pop(); show(); });
  }

  function tabs() {
    var buttons = document.querySelectorAll("[data-tab]");
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        buttons.forEach(function (o) { o.setAttribute("aria-selected", o === b ? "true" : "false"); });
        document.querySelectorAll("[data-panel]").forEach(function (p) { p.hidden = p.dataset.panel !== b.dataset.tab; });
      });
    });
  }

  function countdowns() {
    setInterval(function () {
      document.querySelectorAll("[data-remaining]").forEach(function (el) {
        var left = Math.max(0, parseInt(el.dataset.remaining, 10) - 1);
        el.dataset.remaining = String(left);
        el.textContent = String(left);
      });
    }, 1000);
  }

  function live() {
    var wanted = [];
    parts().forEach(function (el) {
      (el.dataset.on || "").split(" ").forEach(function (w) { if (w && wanted.indexOf(w) < 0) wanted.push(w); });
    });
    var source = new EventSource("/events?parts=" + wanted.join(","));
    var broken = false;
    wanted.forEach(function (name) {
      source.addEventListener(name, function () { refreshAll(name); });
    });
    source.onerror = function () { broken = true; document.body.classList.add("offline"); };
    source.onopen = function () {
      document.body.classList.remove("offline");
      if (broken) refreshAll();  // events were missed while the connection was down
      broken = false;
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    setup(document);
    tabs();
    countdowns();
    var full = document.querySelector("[data-fullscreen]");
    if (full) full.addEventListener("click", function () { document.documentElement.requestFullscreen(); });
    if (document.body.dataset.live) {
      refreshAll().then(function () { document.body.dataset.ready = "1"; });
      live();
    }
  });
})();
