"""``companion vision``: read cards in photos, watch a camera or video, teach a deck."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("vision", help="read cards from photos, watch a camera or video, teach a deck")
    vs = p.add_subparsers(dest="vision_command", metavar="ACTION")

    r = vs.add_parser("read", help="print every card found in each image")
    r.add_argument("images", nargs="+", metavar="IMAGE")
    r.add_argument("--json", action="store_true", help="print JSON (one object per image)")
    r.add_argument("--deck", default=None, help="use the references of a taught deck")
    r.add_argument("--no-mat", action="store_true", help="do not look for the playmat")
    r.add_argument("--game", default=None, help="also report cards taught for this game (companion vision teach --game ...)")
    r.set_defaults(func=run_read)

    w = vs.add_parser("watch", help="follow a camera, video, image folder or 'sim' and write an annotated video")
    w.add_argument("source", metavar="SRC", help="0, /dev/video0, pi, sim[:SEED], a folder of images or a video file")
    w.add_argument("--out", required=True, metavar="FILE", help="annotated video to write (.avi: MJPG, .mp4: mp4v)")
    w.add_argument("--frames", type=int, default=None, help="stop after this many frames")
    w.add_argument("--stable", type=int, default=5, metavar="N", help="frames a change must last (default 5, ~150 ms at 30 fps)")
    w.add_argument("--deck", default=None, help="use the references of a taught deck")
    w.add_argument("--events", action="store_true", help="print each stable snapshot as a JSON line")
    w.set_defaults(func=run_watch)

    t = vs.add_parser(
        "teach",
        help=(
            "learn a deck's corner indices (--deck: photos of one card named QH.jpg ..., or of one suit's 13 cards"
            " laid apart A to K in rows named spades.jpg ...) or one commercial card of a game (--game --name --type PHOTO)"
        ),
    )
    who = t.add_mutually_exclusive_group(required=True)
    who.add_argument("--deck", help="name for this deck of standard cards")
    who.add_argument("--game", help="game whose own cards are taught by feature matching, e.g. gun-and-gun")
    t.add_argument("--name", help="with --game: the card's name as printed, e.g. 計略")
    t.add_argument("--type", dest="card_type", help="with --game: the card's type, e.g. 行動, 機能, 銃弾, 対応")
    t.add_argument("images", nargs="+", metavar="IMAGE_OR_FOLDER")
    t.set_defaults(func=run_teach)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _refs(deck):
    if deck is None:
        return None
    from vision.teach import load_deck

    refs = load_deck(deck)
    if refs is None:
        raise SystemExit(f"companion vision: no taught deck named {deck!r}; run 'companion vision teach --deck {deck} PHOTOS...' first")
    return refs


def run_read(args) -> int:
    import cv2

    from vision.pipeline import VisionPipeline

    refs = _refs(args.deck)
    taught = _taught(args.game)
    status = 0
    for path in args.images:
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            print(f"companion vision read: cannot read image {path!r}", file=sys.stderr)
            status = 2
            continue
        pipe = VisionPipeline(use_mat=not args.no_mat, references=refs, full_marker_scan=True)
        try:
            result = pipe.process(frame)
        except ValueError as exc:  # too small to hold a card: said, and the other images still read
            print(f"companion vision read: {path!r}: {exc}", file=sys.stderr)
            status = 2
            continue
        found = taught.find_all(frame) if taught is not None else []
        if args.json:
            extra = {"taught": [m.to_json() for m in found]} if taught is not None else {}
            print(json.dumps({"image": path, **result.to_json(), **extra}, ensure_ascii=False))
            continue
        h, w = frame.shape[:2]
        print(f"{path}: {w}x{h}, mat {'seen' if result.mat_seen else 'not seen'}, {len(result.sightings)} found")
        for s in result.sightings:
            what = {"card": f"{s.rank} of {s.suit}", "face_down": "face down" + (f" ({s.back})" if s.back else ""), "marker": f"printed card, marker {s.marker_id}", "unknown": "unknown"}[s.kind]
            px = " ".join(f"({x:.0f},{y:.0f})" for x, y in s.outline_px)
            mm = "" if s.outline_mm is None else "  mm " + " ".join(f"({x:.0f},{y:.0f})" for x, y in s.outline_mm)
            stack = f"  above {list(s.above)}" if s.above else ""
            print(f"  #{s.id} {what}  confidence {s.confidence:.2f}  px {px}{mm}{stack}")
        if taught is not None:
            from vision.feature_cards import type_label

            print(f"  {len(found)} taught {args.game} card(s)")
            for m in found:
                px = " ".join(f"({x:.0f},{y:.0f})" for x, y in m.outline)
                print(f"  {m.name} {type_label(m.type)}  confidence {m.confidence:.2f}  inliers {m.inliers}  px {px}")
    return status


def run_watch(args) -> int:
    import cv2

    from vision.annotate import annotate
    from vision.grabber import FrameGrabber
    from vision.pipeline import VisionPipeline
    from vision.sources import CameraSource, PiCameraSource, SourceError, open_source
    from vision.stability import StabilityFilter

    try:
        source = open_source(args.source)
    except SourceError as exc:
        print(f"companion vision watch: {exc}", file=sys.stderr)
        return 2
    live = isinstance(source, CameraSource | PiCameraSource)
    pipe = VisionPipeline(references=_refs(args.deck))
    stab = StabilityFilter(frames=args.stable)
    out_path = Path(args.out)
    fourcc = cv2.VideoWriter_fourcc(*("mp4v" if out_path.suffix.lower() == ".mp4" else "MJPG"))
    writer = None
    n = 0
    grabber = FrameGrabber(source) if live else None
    last = 0
    try:
        while args.frames is None or n < args.frames:
            if grabber is not None:
                fr = grabber.wait_newer(last, timeout=5.0)
                if fr is None:
                    break
                last, frame = fr.index, fr.image
            else:
                frame = source.read()
                if frame is None:
                    break
            n += 1
            try:
                result = pipe.process(frame)
            except ValueError as exc:  # a source of such frames gives no better ones
                print(f"companion vision watch: frame {n}: {exc}", file=sys.stderr)
                return 2
            snap = stab.update(result)
            if snap is not None and args.events:
                print(json.dumps(snap.to_json(), ensure_ascii=False), flush=True)
            vis = annotate(frame, result, stab.stable())
            if writer is None:
                h, w = vis.shape[:2]
                writer = cv2.VideoWriter(str(out_path), fourcc, float(getattr(source, "fps", 30.0) or 30.0), (w, h))
                if not writer.isOpened():
                    print(f"companion vision watch: cannot write {str(out_path)!r}", file=sys.stderr)
                    return 2
            writer.write(vis)
    except KeyboardInterrupt:
        pass
    finally:
        if grabber is not None:
            grabber.stop()
        else:
            source.close()
        if writer is not None:
            writer.release()
    print(f"{n} frames, {len(stab.stable())} stable sightings at the end, written to {out_path}", file=sys.stderr)
    return 0


def run_teach(args) -> int:
    if args.game is not None:
        return run_teach_card(args)
    from vision.sources import IMAGE_EXTS
    from vision.teach import teach

    files: list[Path] = []
    for item in args.images:
        p = Path(item)
        if p.is_dir():
            files += sorted(q for q in p.iterdir() if q.suffix.lower() in IMAGE_EXTS)
        else:
            files.append(p)
    try:
        report = teach(files, args.deck)
    except ValueError as exc:
        print(f"companion vision teach: {exc}", file=sys.stderr)
        return 2
    for f, why in report.failed:
        print(f"  skipped {f}: {why}")
    print(f"deck {args.deck!r}: learnt {len(report.learnt)} card(s)" + (f", saved to {report.path}" if report.path else ""))
    if report.missing:
        print(f"  not yet taught: {' '.join(report.missing)}")
    return 0 if report.learnt else 1


def run_teach_card(args) -> int:
    """``teach --game GAME --name NAME --type TYPE PHOTO``: one card from one photo."""
    from vision.feature_cards import teach_photo, type_label

    if not args.name or not args.card_type:
        print("companion vision teach: --game needs --name NAME and --type TYPE (行動, 機能, 銃弾, 対応 ...)", file=sys.stderr)
        return 2
    if len(args.images) != 1:
        print("companion vision teach: --game teaches one card from ONE photo; run it once per card", file=sys.stderr)
        return 2
    try:
        t = teach_photo(args.game, args.name, args.card_type, args.images[0])
    except ValueError as exc:
        print(f"companion vision teach: {exc}", file=sys.stderr)
        return 2
    where = "card outline found in the photo" if t.outline_found else "whole photo taken as the card"
    verb = "re-taught" if t.replaced else "taught"
    print(f"{args.game}: {verb} {t.name!r} as {type_label(t.type)}, {t.features} features, {where}; saved to {t.saved_to}")
    return 0


def _taught(game):
    if game is None:
        return None
    from vision.feature_cards import load_taught

    try:
        reg = load_taught(game)
    except ValueError as exc:
        raise SystemExit(f"companion vision: {exc}") from None
    if reg is None:
        raise SystemExit(f"companion vision: no cards taught for {game!r}; run 'companion vision teach --game {game} --name NAME --type TYPE PHOTO' first")
    return reg
