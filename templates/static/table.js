// The table page: public view, whose turn, score, camera and calibration, event log, illegal-move
// banners, the dispute viewer, the virtual device panel, host controls and manual entry.
(function () {
  const { T, el, value, fields, moveLabel, seatName, sentence, verdictParts } = window.TC;
  const main = document.getElementById("table");
  const table = main.dataset.table;
  const key = main.dataset.key || undefined;
  const nSeats = Number(main.dataset.seats);
  const $ = (id) => document.getElementById(id);
  const lang = document.documentElement.lang || "en";
  let seq = -1, info = null, view = {}, forms = [];
  const socket = io({ transports: ["websocket"], reconnectionDelay: 500, reconnectionDelayMax: 3000 });
  const statusUrl = `/t/${table}/status.json` + (key ? `?key=${encodeURIComponent(key)}` : "");

  function conn(state) { const c = $("conn"); c.dataset.state = state; c.textContent = T(state); }
  function banner(text) { const b = $("banner"); b.textContent = text || ""; b.hidden = !text; }
  function log(text, cls) {
    const li = el("li", cls, text);
    $("log").prepend(li);
    while ($("log").children.length > 200) $("log").lastChild.remove();
  }
  function illegal(verdict) {
    const n = $("illegal");
    if (!verdict) { n.hidden = true; return; }
    const v = verdictParts(verdict);
    n.replaceChildren(el("strong", null, T("illegal_table", { message: v.text })), el("span", "rule", T("rule", { rule: v.rule })));
    if (v.fix) n.append(el("p", "fix", T("fix", { fix: v.fix })));
    n.hidden = false;
    log(T("illegal_table", { message: v.text }) + " (" + v.rule + ")", "bad");
  }

  // ---- status: whose turn, what is awaited, the score -----------------------
  const SCORE_KEYS = ["scores", "points", "tricks_won", "hit_points", "hits", "life", "lp", "hand_counts", "hand_count",
    "deck_count"];
  function status() {
    const toAct = view.to_act || [];
    if (view.outcome) {
      const who = (view.outcome.winners || []).map((i) => seatName(info, i)).join(T("list_sep"));
      $("turn").textContent = T("over");
      $("awaited").textContent = who ? T(view.outcome.tie ? "tie" : "winner", { who }) : (view.outcome.reason || "");
    } else {
      $("turn").textContent = T("to_play", { who: toAct.length ? toAct.map((i) => seatName(info, i)).join(T("list_sep")) : T("nobody") });
      $("awaited").textContent = view.chance ? T("waiting_chance", { what: view.chance.label || view.chance.kind })
        : (view.phase ? TC.phase(String(view.phase)) : "") + (view.doing ? " — " + view.doing : "");
    }
    // Score: one row per numeric per-seat field (of the view, or of its per-seat objects).
    const rows = [];
    for (const k of SCORE_KEYS) if (Array.isArray(view[k]) && view[k].length === nSeats) rows.push([k, view[k]]);
    for (const list of ["sides", "players", "fighters"]) {
      if (!Array.isArray(view[list]) || view[list].length !== nSeats) continue;
      for (const k of SCORE_KEYS) if (view[list].every((o) => o && typeof o[k] === "number")) rows.push([k, view[list].map((o) => o[k])]);
      // One level down too: a commander's life points ("commander.lp").
      for (const [k, v] of Object.entries(view[list][0] || {})) {
        if (!v || typeof v !== "object" || Array.isArray(v)) continue;
        for (const n of SCORE_KEYS) if (view[list].every((o) => o && o[k] && typeof o[k][n] === "number"))
          rows.push([k + "." + n, view[list].map((o) => o[k][n])]);
        // A bank (Keener's resources): every resource it holds, a row each (public: KN-11).
        if (k === "bank") for (const n of Object.keys(v)) if (view[list].every((o) => o && o[k] && typeof o[k][n] === "number"))
          rows.push([k + "." + n, view[list].map((o) => o[k][n])]);
      }
    }
    const t = el("table", "scores");
    const head = el("tr");
    head.append(el("th"));
    for (let i = 0; i < nSeats; i++) {
      const th = el("th", toAct.includes(i) ? "acting" : null, seatName(info, i));
      const s = info && info.seats[i];
      if (s && !s.connected) th.classList.add("away");
      head.append(th);
    }
    t.append(head);
    for (const [k, vals] of rows) {
      const tr = el("tr");
      tr.append(el("th", null, k.split(".").map(TC.label).join(" · ")));
      for (const x of vals) tr.append(el("td", null, String(x)));
      t.append(tr);
    }
    $("score").replaceChildren(t);
    $("all").replaceChildren(fields(view, { seats: nSeats, seat: -1 }));
    $("view").textContent = JSON.stringify(view, null, 1);
  }
  function seats() {
    if (!info) return;
    let connected = 0;
    for (const s of info.seats) {
      const fig = document.querySelector(`.seat[data-seat="${s.seat}"]`);
      if (fig) fig.hidden = s.connected;
      if (s.connected) connected++;
    }
    const box = $("seats");
    if (box) box.hidden = connected === info.seats.length;
  }

  // ---- device panel: dice, coin, LEDs (from chance and device events) --------
  const DICE = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  const shown = {};
  function device(kind, seat, text, big) {
    const id = kind + ":" + (seat === null || seat === undefined ? "-" : seat);
    shown[id] = { kind, seat, text, big };
    drawDevices();
  }
  function drawDevices() {
    const panel = $("devices");
    panel.replaceChildren();
    for (const d of Object.values(shown)) {
      const box = el("div", "device " + d.kind);
      box.append(el("small", null, T(d.kind) + (typeof d.seat === "number" ? " · " + seatName(info, d.seat) : "")),
        el("span", "big", d.big), el("small", null, d.text));
      panel.append(box);
    }
    const coins = coinBox();
    if (coins) panel.append(coins);
  }
  // Two Freakin' Swords' aggression coins, as a board would light them: per seat, which arm holds a coin
  // (the public view's "coins" lists arm keys such as "1R"; a seat's arms are its L and R).
  const ARM = /^(\d+)([LR])$/;
  function coinBox() {
    const coins = view && view.coins;
    if (!Array.isArray(coins) || !coins.every((c) => typeof c === "string" && ARM.test(c))) return null;
    const held = new Set(coins);
    const box = el("div", "device coins");
    box.dataset.coins = coins.join(" ");
    box.append(el("small", null, T("coins_title")));
    const arms = el("div", "arms");
    for (let i = 0; i < nSeats; i++) {
      const cell = el("span", "seat-arms");
      cell.append(el("small", null, seatName(info, i) + " "));
      for (const side of ["L", "R"]) {
        const lit = held.has(`${i}${side}`);
        const arm = el("span", "arm" + (lit ? " lit" : ""), (lit ? "● " : "○ ") + T(side === "L" ? "arm_left" : "arm_right"));
        arm.dataset.arm = `${i}${side}`;
        arm.title = lit ? T("coin_here") : "";
        cell.append(arm);
      }
      arms.append(cell);
    }
    box.append(arms);
    return box;
  }
  function onEvents(events) {
    for (const e of events || []) {
      log(sentence(e, info));
      if (e.type === "chance-shown") {
        if (e.kind === "coin") device("coin", e.seat, e.label || "", String(e.values[0]));
        else device("dice", e.seat, e.label || "", e.values.map((x) => DICE[x] || x + 1).join(" "));
      }
    }
  }

  function show(msg) {
    if (!msg || msg.seq < seq) return;
    const moved = msg.seq > seq;
    seq = msg.seq;
    if (msg.info) info = msg.info;
    view = msg.view || {};
    TC.learnNames(view);
    if (moved) illegal(null);
    status();
    seats();
    onEvents(msg.events);
    drawDevices();
    banner(info && info.paused ? T("paused") : "");
    manualSeats();
    refreshStatus();
  }

  // ---- camera and calibration ------------------------------------------------
  let polling = null, shownFrame = null;
  const SVG = "http://www.w3.org/2000/svg";
  const SUIT = { H: "♥", D: "♦", C: "♣", S: "♠" };
  // A recognised card's label on the live image: "Q♥", "face down", "printed Keener #12", the taught name, "?".
  function cardLabel(c) {
    const id = String(c.card);
    if (id === "face-down") return T("face_down") + (c.back ? " · " + c.back : "");
    if (id === "unknown") return "?";
    let m = /^printed:(\d+)$/.exec(id);
    if (m) return c.name ? TC.human(c.name) : T("printed_card", { game: main.dataset.title || "", n: m[1] });
    m = /^taught:(.+)$/.exec(id);
    if (m) return m[1];
    m = /^(10|[2-9AJQKT])([HDCS])$/.exec(id);
    if (m) return (m[1] === "T" ? "10" : m[1]) + SUIT[m[2]];
    return id;
  }
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }
  // The outlines are in mat millimetres, the image is the whole mat: the SVG's viewBox is the mat.
  function outlines(d) {
    const box = $("outlines");
    box.setAttribute("viewBox", `0 0 ${d.mat[0]} ${d.mat[1]}`);
    box.replaceChildren();
    for (const c of d.cards || []) {
      const kind = c.card === "unknown" ? "unknown" : c.card === "face-down" ? "down" : "known";
      const g = svg("g", { class: "seen " + kind + (c.confidence < 0.6 ? " unsure" : "") + (/[HD]$/.test(c.card) ? " red" : "") });
      g.dataset.card = c.card;
      g.append(svg("polygon", { points: c.outline.map((p) => p.join(",")).join(" ") }));
      const cx = c.outline.reduce((a, p) => a + p[0], 0) / c.outline.length;
      const cy = c.outline.reduce((a, p) => a + p[1], 0) / c.outline.length;
      const text = svg("text", { x: cx.toFixed(1), y: cy.toFixed(1) });
      text.textContent = cardLabel(c);
      const title = svg("title");
      title.textContent = cardLabel(c) + (c.zone ? " · " + c.zone : "") + " · " + c.confidence;
      g.append(text, title);
      box.append(g);
    }
  }
  // A new frame: load its image first, then swap image and outlines together (they are of the same frame).
  function live(d) {
    if (!d) {
      $("live").hidden = true;
      $("frame-none").hidden = false;
      return;
    }
    if (d.index === shownFrame) return;
    shownFrame = d.index;
    const next = new Image();
    next.onload = () => {
      $("frame").src = next.src;
      outlines(d);
      $("live").hidden = false;
      $("live").dataset.frame = d.index;
      $("frame-none").hidden = true;
    };
    next.src = d.url;
  }
  function refreshStatus() {
    fetch(statusUrl, { cache: "no-store" }).then((r) => r.json()).then((st) => {
      const c = st.camera || {};
      const list = $("calibration");
      list.replaceChildren();
      if (!c.present) list.append(el("li", "muted", T("camera_none")));
      else {
        list.append(el("li", c.mat_seen ? "ok" : "bad", c.mat_seen ? T("mat_seen") : T("mat_missing")));
        const found = el("li", c.markers_found === c.markers_needed ? "ok" : (c.markers_found == null ? "muted" : "bad"),
          T("markers", { n: c.markers_found == null ? T("unknown") : c.markers_found, of: c.markers_needed }));
        found.classList.add("markers");
        if (Array.isArray(c.markers)) found.append(" ", el("small", null, c.markers.length
          ? c.markers.map((k) => T("corner_" + k)).join(T("list_sep")) : T("markers_none")));
        list.append(found);
        const light = el("li", c.light == null ? "muted" : (c.light === "ok" || c.light === true ? "ok" : "bad"),
          T("light", { value: c.light == null ? T("unknown") : (c.light === true ? T("yes") : T("light_" + c.light)) }));
        light.classList.add("light");
        if (typeof c.brightness === "number") light.append(" ", el("small", null, T("light_numbers",
          { brightness: Math.round(c.brightness), contrast: Math.round(c.contrast), glare: (100 * c.glare).toFixed(1) })));
        list.append(light);
        if (typeof c.fps === "number") list.append(el("li", "fps muted", c.fps > 0 ? T("fps", { fps: c.fps }) : T("camera_still")));
        const seen = el("li", "seen");
        seen.append(el("small", null, T("cards_seen", { n: (c.seen || []).length }) + " "));
        for (const s of c.seen || []) {
          const chip = TC.cardChip(s.card === "face-down" ? "▮" : s.name || s.card);
          chip.title = (s.zone || "?") + " · " + s.confidence;
          if (s.confidence < 0.6) chip.classList.add("unsure");
          seen.append(chip);
        }
        list.append(seen);
      }
      // The live image only for the display (it has the key); never the raw frame, never on a phone.
      live(st.display || null);
      if (c.present && !st.display) $("frame-none").textContent = c.mat_seen === false ? T("mat_hidden") : T("no_frame");
      if (st.move_forms && !forms.length) { forms = st.move_forms; manualForm(); }
      if (c.present && !polling) polling = setInterval(refreshStatus, 1000);
    }).catch(() => {});
  }

  // The last entries of the record, so a page opened mid-game has a log (moves of others by type only).
  function history(upto) {
    const from = Math.max(1, upto - 11);
    const lines = [];
    let left = upto - from + 1;
    for (let n = from; n <= upto; n++) {
      socket.emit("record", { table, seq: n }, (ack) => {
        const e = ack && ack.ok ? ack.entry : null;
        if (e && e.move && e.move.type && e.move.type !== "chance") {
          let text = moveLabel(e.move.type);
          if (typeof e.seat === "number") text = T("seat_move", { who: seatName(info, e.seat), what: text });
          if (e.verdict && !e.verdict.ok) text += " — " + T("rejected") + " " + (e.verdict.rule || "");
          lines[n] = [text, e.verdict && !e.verdict.ok ? "bad" : "old"];
        }
        if (--left === 0) for (const line of lines.slice().reverse()) if (line) { const li = el("li", line[1], line[0]); $("log").append(li); }
      });
    }
  }

  // ---- dispute viewer ---------------------------------------------------------
  function record(n) {
    n = Math.max(0, Math.min(n, seq));
    $("rec-seq").value = n;
    socket.emit("record", { table, seq: n }, (ack) => {
      if (!ack || !ack.ok) { $("rec-entry").textContent = ack ? (ack.verdict || ack).message : T("no_answer"); return; }
      const e = ack.entry;
      let text = T("entry", { seq: ack.seq, last: ack.last });
      if (!e) text += " — " + T("entry_none");
      else {
        text += " — " + (e.kind || "") + (typeof e.seat === "number" ? " " + T("by_seat", { n: e.seat + 1 }) : "") + " (" + (e.source || "") + ")";
        if (e.move && e.move.type) text += ": " + moveLabel(e.move.type);
        if (e.verdict) text += " — " + (e.verdict.ok ? T("accepted") : T("rejected") + " " + (e.verdict.rule || "") + " " + (e.verdict.message || ""));
      }
      $("rec-entry").textContent = text;
      const img = $("rec-evidence");
      if (e && e.evidence) { img.src = `/t/${table}/evidence/${e.evidence}`; img.hidden = false; } else img.hidden = true;
      $("rec-view").replaceChildren(fields(ack.view || {}, { seats: nSeats, seat: -1 }));
    });
  }
  $("rec-prev").onclick = () => record(Number($("rec-seq").value) - 1);
  $("rec-next").onclick = () => record(Number($("rec-seq").value) + 1);
  $("rec-last").onclick = () => record(seq);
  $("rec-seq").onchange = () => record(Number($("rec-seq").value));
  $("dispute").addEventListener("toggle", () => { if ($("dispute").open) record(seq); });

  // ---- manual entry (display key only) ----------------------------------------
  function manualSeats() {
    for (const id of ["manual-seat", "host-seat"]) {
      const sel = $(id);
      if (!sel || sel.options.length) continue;
      for (let i = 0; i < nSeats; i++) { const o = el("option", null, seatName(info, i)); o.value = i; sel.append(o); }
    }
    const sel = $("manual-seat");
    if (sel && (view.to_act || []).length && document.activeElement !== sel) sel.value = view.to_act[0];
  }
  function manualForm() {
    const sel = $("manual-type");
    if (!sel) return;
    sel.replaceChildren();
    for (const f of forms) { const o = el("option", null, moveLabel(f.type)); o.value = f.type; sel.append(o); }
    const fieldsFor = () => {
      const f = forms.find((x) => x.type === sel.value);
      const box = $("manual-fields");
      box.replaceChildren();
      for (const name of (f ? f.fields : [])) {
        const lab = el("label", null, TC.label(name) + " ");
        const input = el("input");
        input.name = name; input.autocomplete = "off"; input.placeholder = name;
        lab.append(input);
        box.append(lab);
      }
    };
    sel.onchange = fieldsFor;
    fieldsFor();
  }
  const manual = $("manual-form");
  if (manual) manual.onsubmit = (ev) => {
    ev.preventDefault();
    const move = { type: $("manual-type").value };
    const form = forms.find((x) => x.type === move.type) || { kinds: {} };
    for (const input of $("manual-fields").querySelectorAll("input")) {
      const text = input.value.trim();
      if (text === "") continue;
      const kind = (form.kinds || {})[input.name] || "json";
      if (kind === "text") move[input.name] = text;
      else if (kind === "number" && !Number.isNaN(Number(text))) move[input.name] = Number(text);
      else if (kind === "list" && !text.startsWith("[")) move[input.name] = text.split(/[\s,]+/).filter(Boolean);
      else { try { move[input.name] = JSON.parse(text); } catch (e) { move[input.name] = text; } }
    }
    socket.emit("play", { table, move, seat: Number($("manual-seat").value) }, (ack) => {
      const v = ack && ack.verdict ? verdictParts(ack.verdict) : { rule: ack && ack.code, text: ack ? ack.message : T("no_answer") };
      $("manual-answer").textContent = ack && ack.ok ? T("entered") : `${v.rule}: ${v.text}` + (v.fix ? " — " + T("fix", { fix: v.fix }) : "");
      $("manual-answer").className = "hint " + (ack && ack.ok ? "ok" : "bad");
    });
  };

  // ---- host controls -------------------------------------------------------------
  const auth = $("host-auth");
  function hostAnswer(ack) {
    $("host-answer").textContent = ack && ack.ok ? T("done") : ack ? ((ack.verdict || ack).message || "") : T("no_answer");
  }
  if (auth) auth.onsubmit = (ev) => {
    ev.preventDefault();
    socket.emit("host_auth", { table, pin: $("host-pin").value }, (ack) => {
      if (ack && ack.ok) { auth.hidden = true; $("host-controls").hidden = false; $("host-answer").textContent = T("host_ok"); }
      else hostAnswer(ack);
    });
  };
  for (const b of document.querySelectorAll("#host-controls [data-action]")) b.onclick = () => {
    const msg = { table, action: b.dataset.action };
    if (["kick", "reissue"].includes(msg.action)) msg.seat = Number($("host-seat").value);
    if (msg.action === "rollback") msg.to = Number($("host-to").value);
    socket.emit("host", msg, hostAnswer);
  };

  // ---- socket -----------------------------------------------------------------
  socket.on("connect", () => {
    conn("connected");
    const msg = key ? { table, key, lang } : { table, lang };
    socket.emit("watch", msg, (ack) => {
      const fresh = seq < 0;
      seq = -1;
      show(ack);
      if (fresh && ack && ack.ok) history(ack.seq);
    });
  });
  socket.on("disconnect", (reason) => {
    conn("reconnecting");
    if (reason === "io server disconnect") setTimeout(() => socket.connect(), 1000);
  });
  socket.on("view", show);
  socket.on("illegal", (m) => illegal(m.verdict));
  socket.on("seats", (m) => { if (m.info) { info = m.info; seats(); status(); } });
  socket.on("seat_links", () => {
    for (const img of document.querySelectorAll(".seat img")) img.src = img.src.split("&t=")[0] + "&t=" + Date.now();
    if (key) fetch(`/t/${table}/seats.json?key=${encodeURIComponent(key)}`).then((r) => r.json()).then((d) => {
      for (const s of d.seats) {
        const fig = document.querySelector(`.seat[data-seat="${s.seat}"]`);
        if (fig) { fig.querySelector("a").href = s.url; fig.querySelector("code").textContent = s.code; }
      }
    });
  });
  socket.on("paused", () => { banner(T("paused")); log(T("paused"), "bad"); $("dispute").open = true; record(seq); });
  socket.on("resumed", () => { banner(""); log(T("resumed")); });
  socket.on("over", () => log(T("over")));
  socket.on("question", (q) => log(q.prompt + (q.choices && q.choices.length ? " — " + q.choices.join(" / ") : "")));
  socket.on("device", (d) => {
    const data = d.data || {};
    if (d.kind === "roll_shown") device("dice", data.seat, "", (data.values || []).map((x) => DICE[x - 1] || x).join(" "));
    else if (d.kind === "coin_shown") device("coin", data.seat, "", String(data.face));
    else if (d.kind === "button") log(T("board_button", { button: data.button, n: data.seat === null ? "—" : data.seat + 1 }));
    else device("leds", null, d.kind, JSON.stringify(data));
  });
  conn("connecting");
  refreshStatus();
})();
