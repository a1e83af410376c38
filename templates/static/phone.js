// Minimal phone page (issue 10 builds the real one): join by cookie, show the private view.
(function () {
  const main = document.getElementById("phone");
  const table = main.dataset.table;
  const $ = (id) => document.getElementById(id);
  let seq = -1;
  const socket = io({ transports: ["websocket"] });
  function show(msg) {
    if (!msg || msg.seq < seq) return;
    seq = msg.seq;
    $("view").textContent = JSON.stringify(msg.view, null, 1);
    if (msg.view && (msg.view.to_act || []).includes(msg.seat) && navigator.vibrate) navigator.vibrate(80);
  }
  function notice(text) { const n = $("notice"); n.textContent = text; n.hidden = !text; }
  socket.on("connect", () => {
    $("conn").textContent = "connected";
    socket.emit("join", { table }, (ack) => {
      if (!ack || !ack.ok) { notice(ack ? ack.message : "no answer"); return; }
      $("seat").textContent = "Seat " + (ack.seat + 1);
      show(ack);
    });
  });
  socket.on("disconnect", () => { $("conn").textContent = "reconnecting…"; });
  socket.on("view", show);
  socket.on("rejected", (m) => notice(`${m.verdict.rule}: ${m.verdict.message}` + (m.verdict.fix ? ` — ${m.verdict.fix}` : "")));
  socket.on("illegal", (m) => notice(`${m.verdict.rule}: ${m.verdict.message}` + (m.verdict.fix ? ` — ${m.verdict.fix}` : "")));
  socket.on("kicked", () => notice("The host removed this phone from the seat."));
  socket.on("error", (m) => notice(m.message));
  $("send").onclick = () => {
    let move;
    try { move = JSON.parse($("move").value); } catch (e) { notice("That is not JSON."); return; }
    notice("");
    socket.emit("play", { table, move }, (ack) => { if (ack && ack.ok) notice(""); });
  };
  $("challenge").onclick = () => socket.emit("challenge", { table, reason: "" });
})();
