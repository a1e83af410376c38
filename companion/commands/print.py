"""``companion print``: write a playmat or a sheet of cards as a PDF to print at 100%."""

from __future__ import annotations

import sys

from companion.printing.paper import PAPERS
from companion.printing.sheets import CARD_PAPERS


def register(sub) -> None:
    p = sub.add_parser("print", help="write a printable playmat or cards (PDF)")
    ps = p.add_subparsers(dest="print_command", metavar="WHAT")

    m = ps.add_parser("mat", help="the game's playmat: calibration markers and every zone, at true size")
    m.add_argument("game", metavar="GAME")
    m.add_argument("--seats", type=int, required=True, metavar="N", help="number of players")
    m.add_argument("--variant", default=None, metavar="V", help="the game's variant (default: its first)")
    m.add_argument("--paper", default="A2", choices=tuple(PAPERS), help="A2 is one sheet; A3, A4 and Letter are tiled")
    m.add_argument("--overlap", type=float, default=0.0, metavar="MM",
                   help="least overlap between tiled pages (default 0: pages meet at the cut lines)")
    m.add_argument("--light", action="store_true", help="outlines on white instead of a dark mat (less ink)")
    m.add_argument("--out", default=None, metavar="FILE", help="PDF to write (default GAME-mat-Nseats-PAPER.pdf)")
    m.set_defaults(func=run_mat)

    c = ps.add_parser("cards", help="the game's printed cards, nine poker-size cards per sheet")
    c.add_argument("game", metavar="GAME")
    c.add_argument("--paper", default="A4", choices=CARD_PAPERS)
    c.add_argument("--deck", default=None, metavar="FILE",
                   help="Keener: print one copy per card of this deck (a deck JSON file or a sample deck id)")
    c.add_argument("--copy-set", default="A", choices=("A", "B"),
                   help="Keener: copies 1-2 (A) or 3-4 (B), so two players' printed decks never share a marker")
    c.add_argument("--decks", type=int, default=1, metavar="N",
                   help="Two Freakin' Swords: how many standard decks (1-8; deck n is seat n's own deck)")
    c.add_argument("--out", default=None, metavar="FILE", help="PDF to write (default GAME-cards.pdf)")
    c.set_defaults(func=run_cards)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def run_mat(args) -> int:
    """Exit 0 with the PDF written; 2 for a bad game, seat count, variant or paper (nothing written)."""
    from companion.printing.mat import write_mat

    out = args.out or f"{args.game}-mat-{args.seats}seats-{args.paper}.pdf"
    try:
        pages = write_mat(out, args.game, args.seats, args.variant, args.paper, overlap=args.overlap, light=args.light)
    except ValueError as exc:
        print(f"companion print mat: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion print mat: cannot write {out!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    how = "one sheet" if pages == 1 else f"{pages} pages: cut the dashed lines, butt the pages so the ticks continue"
    print(f"wrote {out}: {args.game} mat for {args.seats} seats on {args.paper}, {how}. Print at 100% (no fit to page).")
    return 0


def run_cards(args) -> int:
    """Exit 0 with the PDF written, or when the game uses real cards (the message says which);
    2 for a bad game, deck or count (nothing written)."""
    from companion.printing.cards import NothingToPrint, write_cards

    out = args.out or f"{args.game}-cards.pdf"
    try:
        pages = write_cards(out, args.game, paper=args.paper, deck=args.deck, copy_set=args.copy_set, decks=args.decks)
    except NothingToPrint as exc:
        print(f"companion print cards: {exc}")
        return 0
    except ValueError as exc:
        print(f"companion print cards: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion print cards: cannot write {out!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {out}: {args.game} cards, {pages} pages. Print at 100% (no fit to page) and cut on the marks.")
    return 0
