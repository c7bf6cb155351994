// Pepper game night: post forms, refresh the parts of the page a server event names.
// Written for this app; no library, no request to any other host.
//
// What a screen must never do: wipe what someone typed or the message a form got back,
// stay on an old screen after a failed refresh, or show "reconnecting" while it is not.
(function () {
  "use strict";
  var csrf = (document.querySelector('meta[name="csrf"]') || {}).content || "";
  var GAP = 250;        // ms: at most four redraws of one part a second
  var RETRY_MAX = 5000; // ms: a failed refresh is tried again, backing off to this
  var lastMessage = null;  // {key, text, ok}: shown again when its form is redrawn
  var streamDown = false, fetchFailing = 0, source = null;
  // The newest sheet version this screen knows of: drawn, or left by its own change. The
  // sheet's version only grows, so a part drawn at an older one is a drawing that was under
  // way when the screen's own change went in: it is fetched again, never drawn over the
  // newer one (its forms would carry the old version, and a hand typed into them would be
  // refused as someone else's change).
  var sheetKnown = -1;

  function parts(name) {
    return Array.prototype.filter.call(document.querySelectorAll("[data-part]"), function (el) {
      return !name || (el.dataset.on || "").split(" ").indexOf(name) >= 0 || el.dataset.part === name;
    });
  }

  function showOffline() {
    var off = streamDown || fetchFailing > 0 || navigator.onLine === false;
    document.body.classList.toggle("offline", off);
  }

  function dirty(el) { return !!el.querySelector('form[data-dirty="1"]'); }

  function sheetVersion() {
    var el = document.querySelector("[data-sheet-version]");
    return el ? el.dataset.sheetVersion : null;
  }

  function syncVersions() {
    var drawn = sheetVersion();
    if (drawn === null && sheetKnown < 0) return;
    var v = String(Math.max(drawn === null ? -1 : Number(drawn), sheetKnown));
    document.querySelectorAll("form[data-sheet-form]").forEach(function (f) {
      if (f.dataset.dirty !== "1" && f.elements.version) f.elements.version.value = v;
    });
  }

  // The sheet version a part was drawn at (its sheet, or its forms' hidden field), or -1.
  function drawnAt(root) {
    var v = -1;
    root.querySelectorAll("[data-sheet-version]").forEach(function (el) {
      v = Math.max(v, Number(el.dataset.sheetVersion)); });
    root.querySelectorAll("form[data-sheet-form] input[name=version]").forEach(function (el) {
      v = Math.max(v, Number(el.value)); });
    return v;
  }

  // This screen's own change moved the sheet from version `from` to `to`: its other forms
  // that knew the same sheet know this one too, even one being typed in before the sheet
  // is redrawn. A form begun on an older sheet keeps its version, so it is still refused
  // if someone else's hand came between.
  function ownChange(from, to) {
    sheetKnown = Math.max(sheetKnown, Number(to));
    if (from === null) return;
    document.querySelectorAll("form[data-sheet-form]").forEach(function (f) {
      if (f.elements.version && f.elements.version.value === from) f.elements.version.value = String(to);
    });
  }

  function formKey(form) {
    // (a row's form: the player, or the tournament's game, it is about)
    var row = form.elements.player || form.elements.game;
    var who = row ? row.value : "";
    return form.getAttribute("action") + "|" + who;
  }

  function stateOf(root) {
    var first = root.firstElementChild;
    return first && first.dataset ? first.dataset.state : undefined;
  }

  // A press in progress (pointer down, not yet up): a part redrawn now would take the
  // pressed button away before the release, and the browser then sends no click at all
  // (a host's Close lost on a slow machine, while an answer's event redrew the part).
  // Drawings that come meanwhile wait for the release, or a second at most.
  var pressing = false, pressTimer = null, heldBack = [];
  function released() {
    if (!pressing) return;
    pressing = false;
    clearTimeout(pressTimer);
    setTimeout(function () {  // after the click this release makes
      var due = heldBack;
      heldBack = [];
      due.forEach(function (d) { apply(d[0], d[1]); });
    }, 0);
  }
  document.addEventListener("pointerdown", function () {
    pressing = true;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(released, 1000);  // a release outside the window never comes
  }, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);

  // Draw the part's fresh HTML, unless nothing changed for this screen (the same state:
  // an answer being ranked or a refusal on screen stays) or someone is typing in it.
  function apply(el, html) {
    if (pressing) {
      heldBack = heldBack.filter(function (d) { return d[0] !== el; });
      heldBack.push([el, html]);
      return;
    }
    if (dirty(el)) { syncVersions(); return; }
    var fresh = document.createElement("template");
    fresh.innerHTML = html;
    var at = drawnAt(fresh.content);
    if (at >= 0 && at < sheetKnown && (el._stale || 0) < 5) {
      el._stale = (el._stale || 0) + 1;
      setTimeout(function () { refresh(el); }, 0);  // drawn before our change: ask again
      return;
    }
    el._stale = 0;
    sheetKnown = Math.max(sheetKnown, at);
    var was = stateOf(el), now = stateOf(fresh.content);
    if (el.dataset.loaded && was !== undefined && was === now) { retime(el, fresh.content); return; }
    if (now !== undefined && was !== now) lastMessage = null;  // a new question: new messages
    var open = Array.prototype.filter.call(el.querySelectorAll("details[open]"), function (d) {
      return d.className; }).map(function (d) { return d.className; });
    var focus = focusKey(el);
    el.innerHTML = html;
    refocus(el, focus);
    open.forEach(function (cls) {  // a section the person opened stays open
      var again = el.querySelector('details[class="' + cls + '"]');
      if (again) again.open = true;
    });
    el.dataset.loaded = "1";
    setup(el);
    sayNews(el);
    syncVersions();
    if (lastMessage) {
      var shown = false;
      el.querySelectorAll("form[data-post]").forEach(function (f) {
        if (formKey(f) === lastMessage.key) { message(f, lastMessage.text, lastMessage.ok); shown = true; }
      });
      if (!shown && lastMessage.part === el.dataset.part) showInPart(el, lastMessage.text, lastMessage.ok);
    }
    if (el.dataset.fit !== undefined) fit(el);
    var later = el.querySelector("[data-redraw-in]");  // what is on it for a while only
    if (later) setTimeout(function () { refresh(el); }, 1000 * Number(later.dataset.redrawIn));
  }

  // One refresh of a part at a time, at most one every GAP ms; a failure is retried
  // (backing off) until it succeeds, so a blip cannot leave an old screen up. The part stays
  // busy while its retry waits: a refresh asked for meanwhile is that retry's to make. Were
  // it a second fetch beside the retry's, the two could answer out of order, and the older
  // drawing, drawn last, would stay up until the next change (a result row that never goes).
  function refresh(el) {
    var st = el._refresh || (el._refresh = {busy: false, again: false, last: 0, wait: 500, waiters: []});
    return new Promise(function (resolve) {
      st.waiters.push(resolve);
      if (st.busy) { st.again = true; return; }
      run();
    });
    function run() {
      st.busy = true;
      st.again = false;
      var delay = Math.max(0, st.last + GAP - Date.now());
      setTimeout(function () {
        st.last = Date.now();
        fetch("/part/" + el.dataset.part, {credentials: "same-origin", headers: {Accept: "text/html"}})
          .then(function (r) {
            if (r.ok) return r.text();
            if (r.status >= 500 || r.status === 429) throw new Error("retry");
            return null;  // 403/404: this screen may not see it; nothing to draw
          })
          .then(function (html) {
            if (st.failed) { st.failed = false; fetchFailing--; showOffline(); }
            st.wait = 500;
            if (html !== null) apply(el, html);
            finish();
          })
          .catch(function () {
            if (!st.failed) { st.failed = true; fetchFailing++; showOffline(); }
            st.wait = Math.min(RETRY_MAX, st.wait * 2);
            setTimeout(run, st.wait);  // still busy: see above
          });
      }, delay);
    }
    function finish() {
      st.busy = false;
      if (st.again) { run(); return; }
      var done = st.waiters;
      st.waiters = [];
      done.forEach(function (f) { f(); });
    }
  }

  function refreshAll(name) { return Promise.all(parts(name).map(refresh)); }

  // The same screen, its timer moved (someone asked for more time): the new time only, so
  // that nothing ticked or typed on the question is lost.
  function retime(el, fresh) {
    var now = fresh.querySelector("[data-remaining]");
    el.querySelectorAll("[data-remaining]").forEach(function (span) {
      if (now) { span.dataset.remaining = now.dataset.remaining; span.textContent = now.textContent; }
    });
  }

  // Where the keyboard was in a part about to be redrawn, found again after: a seat played by
  // keyboard must not lose its place each time another seat plays.
  function focusKey(el) {
    var a = document.activeElement;
    if (!a || a === document.body || !el.contains(a)) return null;
    var keys = ["card", "action", "claim", "rankCard"];
    for (var i = 0; i < keys.length; i++) {
      if (a.dataset[keys[i]]) return "[data-" + keys[i].replace(/[A-Z]/g, function (c) { return "-" + c.toLowerCase(); }) + '="' + a.dataset[keys[i]] + '"]';
    }
    return a.className ? "." + a.className.split(" ")[0] : null;
  }

  function refocus(el, key) {
    if (!key) return;
    var again = el.querySelector(key) || el.querySelector(".my-hand button, .options button, button");
    if (again) again.focus();
  }

  // ---- the seat's live region: every table event said once, in the server's words -------
  var saidUpTo = null, turnSaid = null, saidTable = null, LOG_KEPT = 200;  // a whole hand and then some

  function say(text) {
    var log = document.getElementById("seat-live");
    if (!log || !text) return;
    var line = document.createElement("p");
    line.textContent = text;
    log.appendChild(line);
    while (log.childElementCount > LOG_KEPT) log.removeChild(log.firstElementChild);
    log.scrollTop = log.scrollHeight;
  }

  function sayNews(el) {
    var data = el.querySelector(".said-data");
    if (data && saidTable !== null && data.dataset.table !== saidTable) saidUpTo = 0;  // a new table
    if (data) saidTable = data.dataset.table;
    var items = el.querySelectorAll(".said-data li[data-n]");
    var last = saidUpTo;
    items.forEach(function (li) {
      var n = Number(li.dataset.n);
      if (saidUpTo !== null && n > saidUpTo) say(li.textContent);
      last = Math.max(last === null ? 0 : last, n);
    });
    if (items.length || saidUpTo === null) saidUpTo = last === null ? 0 : last;
    var turn = el.querySelector(".turn-data");
    if (turn && turn.textContent && turn.dataset.key !== turnSaid) say(turn.textContent);
    if (turn) turnSaid = turn.dataset.key;
  }

  // ---- each phone's own settings, kept on the phone ------------------------------------
  function settings() {
    var kept = {};
    try { kept = JSON.parse(localStorage.getItem("night-settings") || "{}") || {}; } catch (e) { kept = {}; }
    return kept;
  }

  function applySettings() {
    var kept = settings();
    ["large-print", "four-colour"].forEach(function (name) {
      document.documentElement.classList.toggle(name, !!kept[name]);
    });
    document.querySelectorAll("[data-setting]").forEach(function (box) {
      box.checked = !!kept[box.dataset.setting];
      if (box.dataset.bound) return;
      box.dataset.bound = "1";
      box.addEventListener("change", function () {
        var now = settings();
        now[box.dataset.setting] = box.checked;
        try { localStorage.setItem("night-settings", JSON.stringify(now)); } catch (e) { /* private mode */ }
        applySettings();
      });
    });
  }

  function message(form, text, ok) {
    if (form.dataset.say !== undefined) { say(text); return; }
    var box = form.nextElementSibling;
    while (box && !box.classList.contains("msg")) box = box.nextElementSibling;
    if (!box) box = form.parentElement.querySelector(".msg");
    if (!box) return;
    box.textContent = text || "";
    box.classList.toggle("ok", !!ok);
    box.classList.toggle("err", !ok);
    box.setAttribute("role", ok ? "status" : "alert");
  }

  // The message of a form that is gone (its part was redrawn without it) goes to the
  // part's own message line.
  function showInPart(part, text, ok) {
    var box = part && part.querySelector(".msg");
    if (!box) return;
    box.textContent = text || "";
    box.className = "msg " + (ok ? "ok" : "err");
  }

  function clearMessages() {
    document.querySelectorAll(".msg").forEach(function (m) { m.textContent = ""; });
    lastMessage = null;
  }

  function answerOf(form) {
    if (form.dataset.join !== undefined) {
      var picked = Array.prototype.filter.call(form.querySelectorAll('input[name="' + form.dataset.join + '"]'),
        function (c) { return c.checked; }).map(function (c) { return c.value; });
      form.elements.answer.value = picked.join(" ");
    }
    if (form.dataset.score !== undefined) {
      var sides = form.dataset.score.split(" ");
      for (var i = 0; i < sides.length; i++) {
        var typed = form.elements["side_" + sides[i]].value.trim();
        if (typed && !/^[-+]?\d+$/.test(typed)) {
          return "Points are whole numbers, such as 3 or -2: " + sides[i] + " " + typed + " is not one.";
        }
      }
      form.elements.answer.value = sides.map(function (side) {
        return side + " " + (form.elements["side_" + side].value.trim() || "0");
      }).join(" ");
    }
    return null;
  }

  function remember(form) {
    if (!form.dataset.remember) return;
    var kept = {};
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (s) { kept[s.name] = s.value; });
    try { localStorage.setItem("night-" + form.dataset.remember, JSON.stringify(kept)); } catch (e) { /* private mode */ }
  }

  function recall(form) {
    if (!form.dataset.remember) return;
    var kept = null;
    try { kept = JSON.parse(localStorage.getItem("night-" + form.dataset.remember) || "null"); } catch (e) { kept = null; }
    if (!kept) return;
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (s) {
      var known = Array.prototype.some.call(s.options, function (o) { return o.value === kept[s.name]; });
      if (known) s.value = kept[s.name];
    });
  }

  // A form with data-confirm sends on the second press: the first says what will happen.
  function confirmed(form) {
    if (form.dataset.confirm === undefined) return true;
    if (form.dataset.armed === "1") { delete form.dataset.armed; return true; }
    form.dataset.armed = "1";
    message(form, form.dataset.confirm, false);
    setTimeout(function () { delete form.dataset.armed; }, 10000);
    return false;
  }

  function submit(form, submitter) {
    if (!confirmed(form)) return Promise.resolve();
    clearMessages();  // the last confirmation stays until this, the next action
    var wrong = answerOf(form);
    if (wrong) { message(form, wrong, false); return Promise.resolve(); }
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    if (settings()["confirm-cards"] && (form.classList.contains("play-form") || form.dataset.say !== undefined)) data.append("confirm", "1");
    var body = new URLSearchParams();
    data.forEach(function (v, k) { if (typeof v === "string" && k !== "card" && k.indexOf("side_") !== 0) body.append(k, v); });
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; });
    var key = formKey(form);
    var sent = form.elements.version ? form.elements.version.value : null;
    // The part is found now: an event may redraw it before the answer comes back, and a
    // form no longer on the page has no part (its message would go nowhere).
    var home = form.closest("[data-part]");
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
      lastMessage = {key: key, text: j.message, ok: j.ok, part: home ? home.dataset.part : null};
      if (form.isConnected) message(form, j.message, j.ok);
      else showInPart(home, j.message, j.ok);
      if (j.html !== undefined && form.dataset.target) document.getElementById(form.dataset.target).innerHTML = j.html;
      if (!j.ok) {
        // Refused: what was typed stays and the message with it; only a conflict (the
        // screen was out of date) redraws the rest of the page.
        if (form.dataset.keep === undefined && home) form.dataset.dirty = "1";
        if (r.status !== 409) return;
        if (j.version !== undefined) {
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
        delete form.dataset.dirty;
        return home ? refresh(home) : null;
      }
      if (j.reset) { form.reset(); recall(form); }
      if (form.dataset.say !== undefined && form.elements.text) form.elements.text.value = "";
      delete form.dataset.dirty;
      if (j.version !== undefined && form.hasAttribute("data-sheet-form")) ownChange(sent, j.version);
      remember(form);
      var more = (form.dataset.refresh || "").split(" ").filter(Boolean);
      if (form.hasAttribute("data-sheet-form")) more.push("sheet");
      return Promise.all(more.map(refreshAll));
    }).catch(function () {
      buttons.forEach(function (b) { b.disabled = b.dataset.wasDisabled === "1"; });
      message(form, "No answer from the game-night server: check the Wi-Fi and try again.", false);
    });
  }

  function setup(root) {
    root.querySelectorAll("form[data-post]").forEach(function (form) {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      recall(form);
      form.addEventListener("submit", function (ev) { ev.preventDefault(); submit(form, ev.submitter); });
      if (form.dataset.keep === undefined) {
        form.addEventListener("input", function () { form.dataset.dirty = "1"; });
        form.addEventListener("change", function () { form.dataset.dirty = "1"; });
      }
      form.addEventListener("change", function () { remember(form); });
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

  // The projector: shrink the text until the whole screen fits; only where the text alone
  // cannot make room (a puzzle's long story above a hand), the cards too, then the text again.
  function fit(el) {
    var text = 1, cards = 1;
    function set() {
      el.style.setProperty("--fit", text.toFixed(2));
      el.style.setProperty("--card-fit", cards.toFixed(2));
    }
    function over() { return el.scrollHeight > el.clientHeight + 1; }
    set();
    while (over() && text > 0.55) { text -= 0.05; set(); }
    while (over() && cards > 0.5) { cards -= 0.05; set(); }
    while (over() && text > 0.3) { text -= 0.05; set(); }
  }

  function tabs() {
    var buttons = Array.prototype.slice.call(document.querySelectorAll("[data-tab]"));
    function pick(b) {
      buttons.forEach(function (o) {
        o.setAttribute("aria-selected", o === b ? "true" : "false");
        o.tabIndex = o === b ? 0 : -1;
      });
      document.querySelectorAll("[data-panel]").forEach(function (p) { p.hidden = p.dataset.panel !== b.dataset.tab; });
    }
    buttons.forEach(function (b, i) {
      b.tabIndex = b.getAttribute("aria-selected") === "true" ? 0 : -1;
      b.addEventListener("click", function () { pick(b); });
      b.addEventListener("keydown", function (ev) {  // the arrow keys move along the tabs
        var step = {ArrowRight: 1, ArrowLeft: -1}[ev.key];
        if (!step) return;
        var next = buttons[(i + step + buttons.length) % buttons.length];
        pick(next);
        next.focus();
        ev.preventDefault();
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

  function wantedParts() {
    var wanted = [];
    parts().forEach(function (el) {
      (el.dataset.on || "").split(" ").forEach(function (w) { if (w && wanted.indexOf(w) < 0) wanted.push(w); });
    });
    return wanted;
  }

  function live() {
    if (source) source.close();
    var wanted = wantedParts();
    source = new EventSource("/events?parts=" + wanted.join(","));
    var broken = false;
    wanted.forEach(function (name) {
      source.addEventListener(name, function () { refreshAll(name); });
    });
    source.onerror = function () {
      broken = true; streamDown = true; showOffline();
      // The browser tries again by itself, unless the server's answer made it give up:
      // then this page does, until the server is back.
      if (source.readyState === 2) setTimeout(live, RETRY_MAX);
    };
    source.onopen = function () {
      var missed = broken || streamDown;  // (a stream opened again after one gave up)
      streamDown = false;
      showOffline();
      if (missed) refreshAll();  // events were missed while the connection was down
      broken = false;
    };
  }

  // Back from sleep, from the browser's back-forward cache or from a lost network: the
  // whole page again, and a new stream if the old one gave up.
  function resync() {
    if (!document.body.dataset.live) return;
    if (!source || source.readyState === 2) live();
    refreshAll();
  }

  applySettings();  // before the first paint where the script runs early enough
  document.addEventListener("click", function (ev) {
    var asked = ev.target.closest && ev.target.closest("[data-say-text]");
    if (asked) say(asked.dataset.sayText);
  });

  document.addEventListener("DOMContentLoaded", function () {
    applySettings();
    setup(document);
    tabs();
    countdowns();
    var full = document.querySelector("[data-fullscreen]");
    if (full) full.addEventListener("click", function () { document.documentElement.requestFullscreen(); });
    if (document.body.dataset.live) {
      refreshAll().then(function () { document.body.dataset.ready = "1"; });
      live();
      document.addEventListener("visibilitychange", function () { if (!document.hidden) resync(); });
      window.addEventListener("pageshow", function (ev) { if (ev.persisted) resync(); });
      window.addEventListener("online", function () { showOffline(); resync(); });
      window.addEventListener("offline", showOffline);
      // A part that says data-poll is asked for again every so many seconds even when
      // nothing changed: the table knows by it that the phone is awake.
      parts().forEach(function (el) {
        var every = parseFloat(el.dataset.poll || "0");
        if (every > 0) setInterval(function () { if (!document.hidden) refresh(el); }, every * 1000);
      });
      window.addEventListener("resize", function () { parts().forEach(function (el) { if (el.dataset.fit !== undefined) fit(el); }); });
    }
  });
})();
