"""The demo table: a scripted game seen through a rendered camera.

A game's script (``double_edge``, ``double_side_play``) says how the engine's
position lies on the printed mat and what a player's hands do on the mat for
each move; :mod:`companion.demo.render` draws that table as an overhead camera
sees it (vision's scene generator: the mat with its markers, cards at their
zone positions, perspective, noise, now and then a hand passing); the frames go
through vision's real pipeline and stability filter (:class:`companion.camera.FrameReader`)
into the table's referee, exactly as a real camera's would.  What players do on
their phones (seals, janken, confirmations) is sent by simulated phones over real
Socket.IO connections (:mod:`companion.demo.phones`); dice and coins are drawn by
the server and shown on the (simulated) boards.  :mod:`companion.demo.driver`
runs it all; ``companion demo`` and the end-to-end tests use it.
"""
