// The phone page: one seat's private view, the move the game wants now, and the answer to it.
// The server sends this seat's view only (room <table>/seat/<n>): no other seat's secrets reach the page.
(function () {
  const { T, el, value, fields, moveLabel, seatName, verdictParts } = window.TC;
  const main = document.getElementById("phone");
  const table = main.dataset.table;
  const $ = (id) => document.getElementById(id);
  const lang = document.documentElement.lang || "en";
  let seq = -1, seat = null, info = null, myTurn = false, selected = null, last = null, offered = [];
  // The seat's latest sealed commitment and the choices it was picked from: until it is revealed the seat may
  // change it ("amend"). Kept in sessionStorage so a reload still offers it; the server has the last word.
  const SEALED = /^(pick|build-base|seal-base|play-support|indicate|janken|cloak|set-response|load|choose-opening)$/;
  const REVEALED = /reveal|shown|round-won|round-scored|trick-won|combat|game-over/;
  const commitKey = "tc-commit-" + table;
  let commit = null, amending = false;
  try { commit = JSON.parse(sessionStorage.getItem(commitKey) || "null"); } catch (e) { commit = null; }
  function remember(value) {
    commit = value;
    amending = false;
    try { if (value) sessionStorage.setItem(commitKey, JSON.stringify(value)); else sessionStorage.removeItem(commitKey); } catch (e) { /* private mode */ }
  }
  const socket = io({ transports: ["websocket"], reconnectionDelay: 500, reconnectionDelayMax: 3000 });

  function conn(state) {
    const c = $("conn");
    c.dataset.state = state;
    c.textContent = T(state);
    document.body.classList.toggle("offline", state !== "connected");
  }
  function notice(verdict) {
    const n = $("notice");
    if (!verdict) { n.hidden = true; return; }
    const v = verdictParts(verdict);
    $("notice-rule").textContent = v.rule ? T("rule", { rule: v.rule }) : "";
    $("notice-text").textContent = v.text;
    $("notice-fix").textContent = v.fix ? T("fix", { fix: v.fix }) : "";
    n.hidden = false;
    if (navigator.vibrate) navigator.vibrate([60, 60, 60]);
    n.scrollIntoView({ block: "nearest" });
  }
  function banner(text) { const b = $("banner"); b.textContent = text || ""; b.hidden = !text; }

  // ---- the private state ----------------------------------------------------
  const MAIN = ["hand", "my_pick", "my_sealed_base", "known_in_hand", "hand_numbers", "playable", "bank", "dice",
    "points", "scores", "tricks_won", "hit_points", "hits", "life", "round", "phase", "turn"];
  function mine(view) {
    const ctx = { seat, seats: (info && info.seats.length) || 0 };
    const box = $("mine");
    box.replaceChildren();
    // Games that keep one object per seat (Keener's sides, the gunners, the fighters): yours first.
    for (const key of ["sides", "players", "fighters"]) {
      const list = view[key];
      if (Array.isArray(list) && list[seat] && typeof list[seat] === "object") {
        const own = el("div", "own");
        own.append(el("h3", null, T("you")), fields(list[seat], ctx, ["bank", "life", "hit_points", "hits"]));
        box.append(own);
      }
    }
    const picked = {};
    for (const k of MAIN) if (k in view) picked[k] = view[k];
    box.append(fields(picked, ctx, MAIN));
    $("all").replaceChildren(fields(view, ctx));
    $("view").textContent = JSON.stringify(view, null, 1);
  }

  // ---- the action: one control built from the seat's legal moves --------------
  // An option's label: its varying fields; a number is named by its field ("gun 1"), a card by its name.
  function describe(move, varying) {
    const parts = [];
    for (const k of varying) {
      const v = move[k];
      if (v === null || v === undefined) continue;
      if (typeof v === "number" || typeof v === "boolean") parts.push(el("span", "text", `${TC.label(k)} ${v === true ? "✓" : v === false ? "—" : v}`));
      else parts.push(value(v, { inList: true }, k));
    }
    return parts;
  }
  function choose(move, button) {
    selected = move;
    for (const b of document.querySelectorAll("#choices button")) b.setAttribute("aria-pressed", b === button ? "true" : "false");
    const confirm = $("confirm");
    confirm.disabled = false;
    const sealing = /seal|pick|indicate|build-base|cloak/.test(move.type);
    confirm.textContent = amending ? T(commit.type === "janken" ? "change_choice" : "change_card") : sealing ? T("seal") : T("confirm") + ": " + moveLabel(move.type);
  }
  // Several cards in an order (a sealed base, an opening hand): tap them in order, tap again to take back.
  // ``free``: the moves cannot be listed (a physical deal's Base); pick ``free.count`` cards in order from
  // ``free.from`` and the move {type, seat, [field]: picked} is sent (the engine checks it).
  // A standard deck without its aces (Double-Edge's 48, DE-2.1): drawn here, not sent, so no list from the
  // server ever names or leaves out another seat's sealed card.
  const DECK = ["C", "D", "H", "S"].flatMap((s) => ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    .map((r) => r + s));
  function picker(list, field, free) {
    const wrap = el("div", "picker");
    const cards = free ? [...(free.also || []), ...(free.from === "deck" ? DECK : free.from || [])]
      : [...new Set(list.flatMap((m) => m[field]))];
    const sizes = free ? [free.count] : [...new Set(list.map((m) => m[field].length))];
    const hint = el("p", "hint", T("in_order", { n: sizes.join("/") }));
    const row = el("div", "options");
    const chosen = [];
    const buttons = [];
    function update() {
      buttons.forEach((b) => {
        const at = chosen.indexOf(b.dataset.card);
        b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
        b.querySelector(".order").textContent = at >= 0 ? String(at + 1) : "";
      });
      const want = JSON.stringify(chosen);
      const move = free ? (chosen.length === free.count
        ? { type: free.type, seat: free.seat, [field]: free.list === false ? chosen[0] : [...chosen] } : null)
        : list.find((m) => JSON.stringify(m[field]) === want);
      const confirm = $("confirm");
      if (move) {
        selected = move;
        confirm.disabled = false;
        confirm.textContent = amending ? T("change_card") : /seal|pick|indicate|build-base|cloak/.test(move.type) ? T("seal") : T("confirm");
      } else { selected = null; confirm.disabled = true; confirm.textContent = T("confirm"); }
    }
    for (const card of cards) {
      const b = el("button", "option card-pick");
      b.type = "button";
      b.dataset.card = card;
      b.append(value(card, {}, ""), el("span", "order"));
      b.onclick = () => {
        const at = chosen.indexOf(card);
        if (at >= 0) chosen.splice(at, 1); else chosen.push(card);
        update();
      };
      buttons.push(b);
      row.append(b);
    }
    wrap.append(hint, row);
    update();
    return wrap;
  }
  // "Change the card": the sealed commitment's choices again, sent as "amend" (the server checks it is unrevealed).
  function changeControl(box) {
    if (!commit || amending || seat === null || commit.seat !== seat) return;
    const b = el("button", "option change", T(commit.type === "janken" ? "change_choice" : "change_card"));
    b.type = "button";
    b.id = "change";
    b.onclick = () => { amending = true; action(last.view || {}, last.moves === undefined ? [] : last.moves); };
    const wrap = el("div", "group change-group");
    const chosen = el("span", "hint");
    chosen.append(T("sealed_now") + " ", ...describe(commit.chosen, commit.fields));
    wrap.append(chosen, b);
    box.append(wrap);
  }
  function action(view, moves) {
    const box = $("choices");
    box.replaceChildren();
    if (amending && commit && !view.outcome) {
      const keep = el("button", "ghost keep", T("keep_card"));
      keep.type = "button";
      keep.id = "keep";
      keep.onclick = () => { amending = false; action(last.view || {}, last.moves === undefined ? [] : last.moves); };
      moves = commit.options.filter((m) => JSON.stringify(m) !== JSON.stringify(commit.chosen));
      render(view, moves);
      $("action-title").textContent = T("change_title");
      $("action-hint").textContent = T("change_hint");
      box.append(keep);
      return;
    }
    render(view, moves);
    if (!view.outcome) changeControl(box);
  }
  function render(view, moves) {
    const box = $("choices");
    selected = null;
    const confirm = $("confirm");
    confirm.disabled = true;
    confirm.textContent = T("confirm");
    const toAct = view.to_act || [];
    if (view.outcome) {
      $("action-title").textContent = T("over");
      const who = (view.outcome.winners || []).map((i) => seatName(info, i)).join(T("list_sep"));
      $("action-hint").textContent = who ? T(view.outcome.tie ? "tie" : "winner", { who }) : "";
      return;
    }
    const free = amending ? null : (last || {}).pick;
    if (free && free.from) {  // pick the sealed card(s) from the deck (a physical deal), in order
      $("action-title").textContent = T("your_turn");
      $("action-hint").textContent = "";
      const group = el("div", "group");
      group.append(el("h3", null, moveLabel(free.type)), picker([], free.field, free));
      box.append(group);
      if (!moves || !moves.length) return;
    }
    if (moves === null) {
      $("action-title").textContent = T("your_turn");
      $("action-hint").textContent = T("manual");
      $("typed").open = true;
      return;
    }
    if (!moves || !moves.length) {
      $("action-title").textContent = T("not_your_turn");
      const others = toAct.filter((i) => i !== seat).map((i) => seatName(info, i));
      $("action-hint").textContent = others.length ? T("waiting", { who: others.join(T("list_sep")) })
        : view.chance ? T("waiting_chance", { what: view.chance.label || view.chance.kind }) : "";
      return;
    }
    $("action-title").textContent = T("your_turn");
    if (!free) $("action-hint").textContent = T("pick_one");
    const groups = new Map();
    for (const m of moves) { if (!groups.has(m.type)) groups.set(m.type, []); groups.get(m.type).push(m); }
    for (const [type, list] of groups) {
      const group = el("div", "group");
      group.append(el("h3", null, moveLabel(type)));
      const keys = [...new Set(list.flatMap((m) => Object.keys(m)))].filter((k) => k !== "type" && k !== "seat");
      const varying = keys.filter((k) => new Set(list.map((m) => JSON.stringify(m[k]))).size > 1);
      const shown = list.length === 1 ? keys : varying;
      if (varying.length === 1 && list.length > 1 && list.every((m) => Array.isArray(m[varying[0]])
          && m[varying[0]].every((x) => typeof x === "string"))) {
        group.append(picker(list, varying[0]));
        box.append(group);
        if (groups.size === 1) $("action-hint").textContent = "";  // the picker says what to do
        continue;
      }
      const row = el("div", "options");
      for (const m of list) {
        const b = el("button", "option");
        b.type = "button";
        b.setAttribute("aria-pressed", "false");
        const parts = describe(m, shown);
        if (!parts.length) b.textContent = moveLabel(type);
        for (const p of parts) b.append(p);
        b.dataset.move = JSON.stringify(m);
        b.onclick = () => choose(m, b);
        row.append(b);
      }
      group.append(row);
      box.append(group);
    }
    if (moves.length === 1 && !free) choose(moves[0], box.querySelector("button[data-move]"));
  }

  function show(msg) {
    if (!msg || msg.seq < seq) return;
    seq = msg.seq;
    last = msg;
    // The game moved on (a view with events after the question): it is no longer asked.
    if (question && question.seq !== undefined && msg.seq > question.seq && (msg.events || []).length) unask();
    if (msg.info) info = msg.info;
    if (msg.seat !== undefined && msg.seat !== null) seat = msg.seat;
    if (commit && ((msg.events || []).some((e) => REVEALED.test(e.type || "")) || (msg.view || {}).outcome)) remember(null);
    offered = msg.moves || [];
    const s = info && info.seats[seat];
    $("seat").textContent = T("seat_n", { n: seat + 1 });
    $("who").textContent = s && s.name ? "· " + s.name : "";
    const moves = msg.moves === undefined ? [] : msg.moves;
    const nowMine = moves === null || moves.length > 0;
    if (nowMine && !myTurn && navigator.vibrate) navigator.vibrate(120);
    myTurn = nowMine;
    document.body.classList.toggle("my-turn", myTurn);
    TC.learnNames(msg.view || {});
    mine(msg.view || {});
    action(msg.view || {}, moves);
    banner(info && info.paused ? T("paused") : "");
  }

  function join() {
    socket.emit("join", { table, lang }, (ack) => {
      if (!ack || !ack.ok) {
        $("seat").textContent = T("join_failed", { message: ack ? ack.message : T("no_answer") });
        banner(T("join_again"));
        return;
      }
      seq = -1;
      unask();
      show(ack);
      if (ack.question) ask(ack.question);  // still open: asked again after a reload or reconnect
    });
  }
  function play(move) {
    const options = offered.filter((m) => m.type === move.type);
    socket.emit("play", { table, move }, (ack) => {
      if (!ack) { notice({ rule: "", message: T("no_answer") }); return; }
      if (ack.ok) {
        notice(null);
        if (SEALED.test(move.type) && options.length > 1) {
          const keys = [...new Set(options.flatMap((m) => Object.keys(m)))].filter((k) => k !== "type" && k !== "seat");
          const fields = keys.filter((k) => new Set(options.map((m) => JSON.stringify(m[k]))).size > 1);
          remember({ seat, type: move.type, chosen: move, options, fields });
          if (last) action(last.view || {}, last.moves === undefined ? [] : last.moves);
        }
      } else notice(ack.verdict || { rule: ack.code, message: ack.message });
    });
  }
  function amend(move) {
    socket.emit("amend", { table, move }, (ack) => {
      if (!ack) { notice({ rule: "", message: T("no_answer") }); return; }
      if (ack.ok) {
        notice(null);
        remember({ ...commit, chosen: move });
        banner(T("changed"));
        setTimeout(() => { if ($("banner").textContent === T("changed")) banner(""); }, 3000);
      } else {
        notice(ack.verdict || { rule: ack.code, message: ack.message });
        const rule = (ack.verdict || {}).rule || ack.code;
        if (rule === "TC-SEALED" || rule === "TC-AMEND") remember(null);
      }
      if (last) action(last.view || {}, last.moves === undefined ? [] : last.moves);
    });
  }
  socket.on("connect", () => {
    main.dataset.connections = String(Number(main.dataset.connections || 0) + 1);  // reconnects, for the curious
    conn("connected");
    join();
  });
  let kicked = false;
  socket.on("disconnect", (reason) => {
    conn("reconnecting");
    // socket.io does not retry after the server closed the socket itself (a restart does not do that, a
    // kick does): retry unless this phone was removed from its seat.
    if (reason === "io server disconnect" && !kicked) setTimeout(() => socket.connect(), 1000);
  });
  socket.io.on("reconnect_attempt", () => conn("reconnecting"));
  socket.on("view", show);
  socket.on("rejected", (m) => notice(m.verdict));
  socket.on("illegal", (m) => notice(m.verdict));
  socket.on("paused", () => banner(T("paused")));
  socket.on("resumed", () => banner(""));
  // The table asks this seat (the camera could not decide): one button per choice, sent back as "answer".
  // A choice is a code (a card, cards in order "QH-JS-2C", or "declare:play-action:0A-12"): shown readably,
  // sent back as is.
  const ANSWER_WORDS = new Set(["declare", "decline", "load", "yes", "no"]);
  function choiceLabel(choice) {
    const out = [];
    const text = String(choice);
    const parts = text.includes(":") ? text.split(":") : [text];
    parts.forEach((part, i) => {
      if (i === 0 && parts.length > 1 && ANSWER_WORDS.has(part)) out.push(el("strong", "text", T("answer_" + part)));
      else if (i === 1 && parts.length > 2 && /^[a-z]+(-[a-z]+)+$|^[a-z]+$/.test(part)) out.push(el("span", "text", moveLabel(part)));
      else if (/^\d+$/.test(part) && parts.length > 2) out.push(el("span", "text", `${TC.label("gun")} ${part}`));  // as the move picker names it
      else if (part.includes("-") && part.split("-").every((c) => /^(10|[2-9AJQKT])[HDCS♥♦♣♠]$/.test(c))) {
        const row = el("span", "chips");
        part.split("-").forEach((c, n) => { row.append(el("small", "order", String(n + 1)), TC.cardChip(c)); });
        out.push(row);
      } else out.push(value(part, { inList: true }, "card"));
    });
    return out;
  }
  let question = null;
  function unask() { question = null; const q = $("question"); q.replaceChildren(); q.hidden = true; }
  function ask(q) {
    if (!q) return;
    question = q;
    const b = $("question");
    b.replaceChildren(el("p", null, q.prompt));
    const row = el("div", "options");
    for (const [i, choice] of (q.choices || []).entries()) {
      const btn = el("button", "option answer");
      btn.type = "button";
      btn.value = choice;
      btn.dataset.choice = choice;
      btn.title = choice;
      // The server's label in this seat's language when it says more than the code; else the code, readably.
      const said = (q.labels || [])[i];
      if (said && said !== choice) btn.append(el("span", "text", said)); else btn.append(...choiceLabel(choice));
      btn.addEventListener("click", () => socket.emit("answer", { table, choice }, (ack) => {
        if (!ack) { notice({ rule: "", message: T("no_answer") }); return; }
        if (ack.ok) { notice(null); unask(); }
        else notice(ack.verdict || { rule: ack.code, message: ack.message });
      }));
      row.append(btn);
    }
    b.append(row);
    b.hidden = false;
  }
  socket.on("question", ask);
  socket.on("kicked", () => { kicked = true; banner(T("kicked")); socket.disconnect(); });
  socket.on("error", (m) => { if (m && m.event !== "play") notice({ rule: m.code, message: m.message }); });

  $("confirm").onclick = () => { if (selected) (amending ? amend : play)(selected); };
  $("notice-close").onclick = () => notice(null);
  $("send").onclick = () => {
    let move;
    try { move = JSON.parse($("move").value); } catch (e) { notice({ rule: "", message: T("not_json", { example: '{"type": "end-turn"}' }) }); return; }
    play(move);
  };
  $("challenge").onclick = () => {
    if (!window.confirm(T("challenge_sure"))) return;
    socket.emit("challenge", { table, reason: "" }, (ack) => {
      if (ack && ack.ok) banner(T("challenged"));
      else if (ack) notice(ack.verdict || { rule: ack.code, message: ack.message });
    });
  };
  // The seat names its player (a PIN keeps the name theirs) and, at Two Freakin' Swords, its character:
  // the same character name picks the living sheet up again, a new one starts a new sheet.
  $("name-form").onsubmit = (ev) => {
    ev.preventDefault();
    const name = $("name").value.trim();
    if (!name) return;
    const msg = { table, name };
    const pin = $("pin") ? $("pin").value.trim() : "";
    if (pin) msg.pin = pin;
    const character = $("character") ? $("character").value.trim() : "";
    if (character) msg.character = character;
    socket.emit("profile", msg, (ack) => {
      const out = $("profile-answer");
      if (!ack) { notice({ rule: "", message: T("no_answer") }); return; }
      if (!ack.ok) { out.hidden = true; notice(ack.verdict || { rule: ack.code, message: ack.message }); return; }
      notice(null);
      const parts = [T("profile_saved", { name: (ack.player || {}).name || name })];
      if (ack.character) parts.push(T("character_sheet", { name: ack.character.name, points: ack.character.points || 0 }));
      out.textContent = parts.join(" ");
      out.hidden = false;
      // The sheet's points wait for the next fight when this one has begun (TC-OPTIONS): said as a notice.
      if (ack.sheets && !ack.sheets.ok && ack.sheets.verdict) notice(ack.sheets.verdict);
    });
  };
  conn("connecting");
})();
