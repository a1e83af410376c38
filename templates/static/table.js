// Minimal table page (issue 10 builds the real one): public view, event log, illegal-move banner.
(function () {
  const main = document.getElementById("table");
  const table = main.dataset.table;
  const key = main.dataset.key || undefined;
  const $ = (id) => document.getElementById(id);
  let seq = -1;
  const socket = io({ transports: ["websocket"] });
  function log(text) { const li = document.createElement("li"); li.textContent = text; $("log").prepend(li); }
  function show(msg) {
    if (!msg || msg.seq < seq) return;
    seq = msg.seq;
    $("view").textContent = JSON.stringify(msg.view, null, 1);
    for (const e of msg.events || []) log(JSON.stringify(e));
    if (msg.info) for (const s of msg.info.seats) {
      const fig = document.querySelector(`.seat[data-seat="${s.seat}"]`);
      if (fig) fig.hidden = s.connected;
    }
  }
  socket.on("connect", () => {
    $("conn").textContent = "connected";
    socket.emit("watch", key ? { table, key } : { table }, show);
  });
  socket.on("disconnect", () => { $("conn").textContent = "reconnecting…"; });
  socket.on("view", show);
  socket.on("illegal", (m) => { const n = $("illegal"); n.hidden = false; n.textContent = `${m.verdict.rule}: ${m.verdict.message}` + (m.verdict.fix ? ` — ${m.verdict.fix}` : ""); });
  socket.on("paused", (m) => log("paused: " + JSON.stringify(m.paused)));
  socket.on("resumed", (m) => log("resumed: " + m.ruling));
  socket.on("over", (m) => log("game over: " + JSON.stringify(m.outcome)));
})();
