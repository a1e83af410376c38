// Shared by the phone and table pages: translated strings and a renderer for any game's view.
// The strings come from the server in the reader's language (page_strings in companion/pages.py).
(function () {
  const S = JSON.parse(document.getElementById("strings").textContent);
  function T(key, values) {
    let text = S[key] !== undefined ? S[key] : key;
    for (const [k, v] of Object.entries(values || {})) text = text.split("{" + k + "}").join(String(v));
    return text;
  }
  const human = (name) => String(name).replace(/[-_]/g, " ");
  const label = (name) => (S.field && S.field[name]) || human(name);
  const phase = (name) => (S.phase && S.phase[name]) || human(name);
  const moveLabel = (type) => (S.move && S.move[type]) || human(type);
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  // A playing card id: "AH", "10S", "7♣", "JK", or a number card "red:3".
  const CARD = /^(10|[2-9AJQKT])([HDCS♥♦♣♠])$/;
  const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
  // Card ids the view names somewhere ({id, name} objects: Keener's cards, the gunners' cards).
  let NAMES = new Map();
  function learnNames(view) {
    const names = new Map();
    const stack = [view];
    while (stack.length) {
      const x = stack.pop();
      if (Array.isArray(x)) stack.push(...x);
      else if (x && typeof x === "object") {
        if (typeof x.id === "string" && typeof x.name === "string") names.set(x.id, x.name);
        stack.push(...Object.values(x));
      }
    }
    NAMES = names;
  }
  const LETTER = { R: "red", B: "blue", G: "green", Y: "yellow" };
  function cardChip(text) {
    const chip = el("span", "chip");
    if (NAMES.has(text)) { chip.textContent = NAMES.get(text); chip.title = text; chip.dataset.id = text; return chip; }
    const m = CARD.exec(text);
    const inst = /^\d+:([a-z][a-z0-9-]*)(?:#(\d+))?$/.exec(text);  // a card instance id, "1:iron-miner#2"
    if (inst) {
      chip.textContent = human(inst[1]).replace(/^./, (c) => c.toUpperCase()) + (inst[2] ? " #" + inst[2] : "");
      chip.title = text;
      chip.dataset.id = text;
      return chip;
    }
    if (m) {
      const suit = SUITS[m[2]] || m[2];
      chip.textContent = m[1] + suit;
      chip.classList.add("cardface");
      if ("♥♦".includes(suit)) chip.classList.add("red");
    } else {
      chip.textContent = text;
      const colour = /^(red|blue|green|yellow)\b/.exec(text);
      const letter = /^([RBGY])(\d{1,2})$/.exec(text);
      if (colour) chip.classList.add("c-" + colour[1]);
      else if (letter) chip.classList.add("c-" + LETTER[letter[1]]);
    }
    return chip;
  }
  const DICE = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
  function value(v, ctx, key) {
    ctx = ctx || {};
    if (v === null || v === undefined) return el("span", "muted", "—");
    if (typeof v === "boolean") return el("span", v ? "yes" : "muted", v ? "✓" : "—");
    if (typeof v === "number") {
      if (key === "dice" || key === "die") return el("span", "die", DICE[v - 1] || String(v));
      return el("span", "num", String(v));
    }
    if (typeof v === "string" && key === "phase") return el("span", "text", phase(v));
    if (typeof v === "string") return ctx.inList || CARD.test(v) ? cardChip(v) : el("span", "text", v);
    if (Array.isArray(v)) {
      const seats = ctx.seats || 0;
      if (seats && v.length === seats && v.every((x) => x === null || typeof x !== "object" || Array.isArray(x))) {
        // One value per seat: yours first and marked.
        const row = el("span", "perseat");
        v.forEach((x, i) => {
          const cell = el("span", "seatval" + (i === ctx.seat ? " me" : ""));
          cell.append(el("small", null, i === ctx.seat ? T("you") : T("seat_n", { n: i + 1 })), value(x, { ...ctx, seats: 0 }, key));
          row.append(cell);
        });
        return row;
      }
      const list = el("span", "chips");
      if (!v.length) list.append(el("span", "muted", "—"));
      for (const x of v) list.append(value(x, { ...ctx, inList: true }, key));
      return list;
    }
    const entries = Object.entries(v);
    if (entries.length && entries.length <= 8 && entries.every(([, x]) => x === null || typeof x !== "object")) {
      // A small flat record (a bank, a gun): one line of "name value" pairs.
      const line = el("span", "pairs");
      for (const [k, x] of entries) {
        const pair = el("span", "pair");
        pair.append(el("small", null, label(k)), value(x, { ...ctx, seats: 0, inList: false }, k));
        line.append(pair);
      }
      return line;
    }
    return fields(v, ctx);
  }
  const SKIP = new Set(["game", "variant", "to_act", "chance", "outcome", "seat"]);
  function fields(obj, ctx, order) {
    const dl = el("dl", "fields");
    const keys = Object.keys(obj).filter((k) => !SKIP.has(k));
    const first = (order || []).filter((k) => keys.includes(k));
    for (const k of [...first, ...keys.filter((k) => !first.includes(k))]) {
      const row = el("div", "field f-" + k);
      row.append(el("dt", null, label(k)));
      const dd = el("dd");
      dd.append(value(obj[k], ctx, k));
      row.append(dd);
      dl.append(row);
    }
    return dl;
  }
  function seatName(info, i) {
    const s = info && info.seats && info.seats[i];
    const n = T("seat_n", { n: i + 1 });
    return s && s.name ? `${n} (${s.name})` : n;
  }
  // One event as a plain sentence.
  function sentence(e, info) {
    if (e.type === "chance-shown") {
      const vals = (e.values || []).map((x) => (e.kind === "coin" ? x : x + 1)).join(", ");
      return T("rolled", { label: e.label || moveLabel(e.kind), values: vals });
    }
    const rest = Object.entries(e).filter(([k]) => k !== "type" && k !== "seat")
      .map(([k, v]) => `${label(k)} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
    const what = moveLabel(e.type) + (rest ? ` (${rest})` : "");
    return typeof e.seat === "number" ? T("seat_move", { who: seatName(info, e.seat), what }) : what;
  }
  function verdictParts(v) {
    return { rule: v.rule || "", text: v.message || "", fix: v.fix || "" };
  }
  window.TC = { phase, T, learnNames, label, moveLabel, el, cardChip, value, fields, sentence, seatName, verdictParts, human };
})();
