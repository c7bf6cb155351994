// A Game Guide: shows step i of a hand whose steps Python wrote (pepper_tutor.render.guide).
// It knows no rule and works out no answer: every card, sentence, grade and figure it shows is
// in the data, and every text goes in as text (never as HTML).
(function () {
  "use strict";

  function el(tag, attrs, kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = v;
      else if (k === "cls") node.className = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids || []) if (kid) node.append(kid);
    return node;
  }

  function hashParams() {
    const out = new Map();
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      if (!part) continue;
      const i = part.indexOf("=");
      out.set(i < 0 ? part : part.slice(0, i), i < 0 ? "" : part.slice(i + 1));
    }
    return out;
  }

  function start(root, data) {
    const steps = data.steps;
    const last = steps.length - 1;
    let at = 0;
    let timer = null;
    const cards = data.cards;

    const cardEl = (code, win) => {
      const c = cards[code];
      return el("span", { cls: "pg-card" + (c.red ? " pg-red" : "") + (win ? " pg-win" : ""),
        role: "img", "aria-label": c.words + (win ? ", winning" : ""), title: c.words,
        "data-card": code, text: c.display });
    };

    // ---- the skeleton ----
    const view = data.view ? `${data.seat_words[data.view]}'s view: the other hands are face down`
      : "All hands";
    const head = el("header", {}, [el("h1", { text: data.title }),
      el("p", { cls: "pg-sub", text: `A game guide · ${data.rules} rules · ${view}` })]);
    const contract = el("p", { id: "pg-contract" });
    const won = el("p", { id: "pg-won" });
    const auction = el("p", { id: "pg-auction" });
    const status = el("section", { cls: "pg-status", "aria-label": "The hand so far" },
      [contract, won, auction]);
    const seats = {};
    const table = el("section", { cls: "pg-table", "aria-label": "The table" });
    for (const s of data.seats) {
      const hand = el("div", { cls: "pg-hand" });
      const name = el("h3", { text: data.names[s] });
      const box = el("div", { cls: "pg-seat", "data-seat": s }, [name, hand]);
      seats[s] = { box, hand, name };
      table.append(box);
    }
    const trick = el("div", { cls: "pg-trick", role: "group", "aria-label": "Cards on the table" });
    table.append(trick);
    const count = el("p", { cls: "pg-count", id: "pg-count" });
    const title = el("h2", { id: "pg-step-title", tabindex: "-1" });
    const lines = el("ul", { id: "pg-lines" });
    const rule = el("p", { cls: "pg-rule", id: "pg-rule" });
    const story = el("section", { cls: "pg-story", "aria-labelledby": "pg-step-title" },
      [count, title, lines, rule]);
    const coach = el("section", { cls: "pg-coach", id: "pg-coach", "aria-label": "The coach" });
    const main = el("div", { cls: "pg-main" }, [table, story, coach]);

    const button = (label, key, aria) => el("button", { type: "button", "aria-label": aria,
      "aria-keyshortcuts": key, text: label });
    const first = button("« Start", "Home", "Go to the start (the deal)");
    const back = button("◀ Back", "ArrowLeft", "Back one step");
    const play = button("▶ Play", "Space", null);  // its words say what it does: Play, Pause
    const fwd = button("Next ▶", "ArrowRight", "Next step");
    // a lesson step's hand may stop before the score (where the step's answer would be)
    const ending = steps[last].kind === "score" ? "the score" : "where the hand stops";
    const end = button("End »", "End", `Go to the end (${ending})`);
    const trickPick = el("select", { id: "pg-trick" });
    trickPick.append(el("option", { value: "0", text: "The deal" }));
    for (let t = 1; t <= data.tricks; t++) {
      trickPick.append(el("option", { value: String(data.trick_starts[t]), text: `Trick ${t}` }));
    }
    trickPick.append(el("option", { value: String(last),
      text: ending[0].toUpperCase() + ending.slice(1) }));
    const pace = el("select", { id: "pg-pace" });
    for (const [v, label] of [["3000", "slow (3 s)"], ["1500", "medium (1.5 s)"],
      ["700", "fast (0.7 s)"]]) pace.append(el("option", { value: v, text: label }));
    pace.value = "1500";
    const big = el("button", { type: "button", "aria-pressed": "false", text: "Large print" });
    // The step buttons stay at the bottom of the screen while the page scrolls (a phone).
    const controls = el("nav", { cls: "pg-controls", "aria-label": "Step through the hand" },
      [first, back, play, fwd, end]);
    const options = el("div", { cls: "pg-options" }, [
      el("label", { for: "pg-trick" }, [document.createTextNode("Go to"), trickPick]),
      el("label", { for: "pg-pace" }, [document.createTextNode("Pace"), pace]), big]);
    const link = el("input", { id: "pg-link", readonly: true, type: "text" });
    const copy = el("button", { type: "button", text: "Copy link" });
    const tools = el("div", { cls: "pg-tools" }, [
      el("label", { for: "pg-link" }, [document.createTextNode("Link to this step")]), link,
      copy]);
    const keys = el("p", { cls: "pg-keys", text: "Keys: → next step, ← back, ↑ ↓ trick by " +
      `trick, Home the deal, End ${ending}, Space play or pause.` });
    const say = el("div", { cls: "pg-sr", role: "status", "aria-live": "polite",
      id: "pg-say" });
    root.classList.add("pg");
    const coached = steps.some((x) => x.coach);
    coach.hidden = !coached;
    root.replaceChildren(head, status, main, controls, options, tools, keys, say);

    // ---- showing step i ----
    function show(i, announce) {
      at = Math.max(0, Math.min(last, i));
      const step = steps[at];
      count.textContent = `Step ${at + 1} of ${steps.length}`;
      title.textContent = step.title;
      contract.textContent = step.contract ? `Contract: ${step.contract}` : "Contract: none yet";
      const w = Object.entries(step.won || {});
      won.textContent = w.length ? "Tricks: " + w.map(([s, n]) => `${s} ${n}`).join(", ") : "";
      auction.textContent = step.auction.length ? "Auction: " + step.auction.map(
        ([s, c]) => `${data.seat_words[s]} ${c}`).join(", ") : "";
      for (const s of data.seats) {
        const { box, hand, name } = seats[s];
        const held = step.hands[s];
        box.classList.toggle("pg-acting", step.seat === s);
        name.textContent = data.names[s] + (step.out === s ? " · sits out" : "");
        if (held === undefined) hand.replaceChildren();
        else if (typeof held === "number") {
          hand.replaceChildren(el("span", { cls: "pg-down",
            text: `${held} card${held === 1 ? "" : "s"} face down` }));
        } else if (!held.length) hand.replaceChildren(el("span", { cls: "pg-down", text: "no cards" }));
        else hand.replaceChildren(...held.map((c) => cardEl(c)));
      }
      trick.replaceChildren(...step.table.map(([s, c]) => {
        const winning = step.winner === s;
        return el("div", { cls: "pg-played", "data-seat": s }, [cardEl(c, winning),
          el("small", { text: data.seat_words[s] + (winning ? " wins" : "") })]);
      }));
      lines.replaceChildren(...step.lines.map((t) => el("li", { text: t })));
      story.classList.toggle("pg-finding", step.finding);
      rule.replaceChildren();
      if (step.rule) {
        rule.append(document.createTextNode("Rule "), el("code", { text: step.rule }),
          document.createTextNode(step.rule_text ? `: ${step.rule_text}` : ""));
      }
      showCoach(step.coach);
      first.disabled = back.disabled = at === 0;
      fwd.disabled = end.disabled = at === last;
      let pick = 0;
      for (const opt of trickPick.options) if (Number(opt.value) <= at) pick = opt.index;
      trickPick.selectedIndex = pick;
      const params = hashParams();
      params.set("step", String(at + 1));
      const hash = "#" + [...params].map(([k, v]) => `${k}=${v}`).join("&");
      try { history.replaceState(null, "", hash); } catch (err) { /* about:srcdoc */ }
      link.value = location.href.split("#")[0] + hash;
      root.dataset.step = String(at + 1);
      if (announce) say.textContent = `Step ${at + 1} of ${steps.length}. ${step.say}`;
    }

    function showCoach(c) {
      coach.replaceChildren(el("h2", { text: "The coach" }));
      if (!c) {
        const others = data.view && steps[at].seat && steps[at].seat !== data.view;
        coach.append(el("p", { text: others ? `In ${data.seat_words[data.view]}'s view the ` +
          `coach grades ${data.seat_words[data.view]}'s own decisions only.`
          : "No grade at this step." }));
        return;
      }
      const p = el("p");
      if (c.grade) p.append(el("span", { cls: "pg-grade", "data-grade": c.grade, text: c.grade }), " ");
      p.append(document.createTextNode(c.words));
      if (c.cost) p.append(document.createTextNode(` Against perfect play this card costs ${
        c.cost} trick${c.cost === 1 ? "" : "s"}.`));
      coach.append(p);
      if (c.strip && c.strip.length) {
        const dd = c.strip.some((x) => x.dd !== undefined);
        const headRow = el("tr", {}, [el("th", { scope: "col", text: "Card" }),
          el("th", { scope: "col", text: "Tricks expected (the seat's view)" }),
          el("th", { scope: "col", text: "Net points expected" })]);
        if (dd) headRow.append(el("th", { scope: "col", text: "Tricks, all hands seen" }));
        const tbl = el("table", { cls: "pg-strip" }, [el("caption", {
          text: "What each card could have scored (for the side to play, whole hand)" }),
          el("thead", {}, [headRow])]);
        const body = el("tbody");
        for (const x of c.strip) {
          const name = el("th", { scope: "row" }, [cardEl(x.card)]);
          if (x.played) name.append(" played");
          const row = el("tr", { cls: x.played ? "pg-chosen" : "" }, [name,
            el("td", { text: x.tricks === undefined ? "–" : x.tricks.toFixed(1) }),
            el("td", { text: x.net === undefined ? "–" : (x.net > 0 ? "+" : "") + x.net.toFixed(1) })]);
          if (dd) row.append(el("td", { text: x.dd === undefined ? "–" : String(x.dd) }));
          body.append(row);
        }
        tbl.append(body);
        coach.append(tbl);
      }
    }

    // ---- moving ----
    function stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      play.textContent = "▶ Play";
    }
    function go(i) { show(i, true); if (at === last) stop(); }
    function toggle() {
      if (timer !== null) { stop(); return; }
      if (at === last) show(0, true);
      play.textContent = "‖ Pause";
      timer = setInterval(() => go(at + 1), Number(pace.value));
    }
    function trickStep(delta) {
      const starts = [...trickPick.options].map((o) => Number(o.value));
      if (delta > 0) go(starts.find((v) => v > at) ?? last);
      else go([...starts].reverse().find((v) => v < at) ?? 0);
    }
    first.onclick = () => { stop(); go(0); };
    back.onclick = () => { stop(); go(at - 1); };
    fwd.onclick = () => { stop(); go(at + 1); };
    end.onclick = () => { stop(); go(last); };
    play.onclick = toggle;
    trickPick.onchange = () => { stop(); go(Number(trickPick.value)); };
    pace.onchange = () => { if (timer !== null) { stop(); toggle(); } };
    copy.onclick = async () => {
      link.select();
      try { await navigator.clipboard.writeText(link.value); copy.textContent = "Copied"; }
      catch (err) { copy.textContent = "Select and copy the link"; }
    };
    big.onclick = () => {
      const on = !root.classList.contains("pg-big");
      root.classList.toggle("pg-big", on);
      big.setAttribute("aria-pressed", String(on));
    };
    document.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const tag = (ev.target && ev.target.tagName) || "";
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      const moves = { ArrowRight: () => go(at + 1), ArrowLeft: () => go(at - 1),
        Home: () => go(0), End: () => go(last), ArrowDown: () => trickStep(1),
        ArrowUp: () => trickStep(-1) };
      if (ev.key === " " || ev.key === "Spacebar") { ev.preventDefault(); toggle(); return; }
      if (moves[ev.key]) { ev.preventDefault(); stop(); moves[ev.key](); }
    });
    const fromHash = () => {
      const n = Number(hashParams().get("step") || data.start || 1);
      return Number.isInteger(n) && n >= 1 ? n - 1 : 0;
    };
    window.addEventListener("hashchange", () => { if (fromHash() !== at) show(fromHash(), true); });
    if (data.big) big.click();
    show(fromHash(), false);
    say.textContent = `${data.title}. Step ${at + 1} of ${steps.length}. ${steps[at].say}`;
    root.dataset.ready = "true";
    return { show: (i, announce = true) => show(i, announce), get step() { return at; } };
  }

  window.PepperGuide = { start };
  const embedded = document.getElementById("pg-data");
  if (embedded) {
    window.pepperGuide = start(document.getElementById("pg"), JSON.parse(embedded.textContent));
  }
})();
