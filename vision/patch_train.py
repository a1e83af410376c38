"""Training the whole corner-index network (:mod:`vision.patch_model`).

The shipped weights (24, 48 and 96 channels, 192 hidden, since session 31;
16, 32, 64 and 128 before) were trained so:

    # drawn corners, with the project's environment (more letter shapes: see vision.glyph_train)
    .venv/bin/python -m vision.patch_train --samples 60000 --epochs 0 --seed 7 --font-dir /tmp/trainfonts --data /tmp/synth.npz
    # patches cut from generated frames as the pipeline cuts them (seeds no benchmark uses)
    .venv/bin/python scripts/patch_scene_data.py --scenes 3000 --seed0 100000 --out /tmp/s720.npz
    .venv/bin/python scripts/patch_scene_data.py --scenes 1000 --seed0 200000 --frame 1920x1080 --out /tmp/s1080.npz
    .venv/bin/python scripts/patch_scene_data.py --scenes 600 --seed0 300000 --decks --out /tmp/sdecks.npz
    # benchmark scenes to watch while training (never trained on)
    .venv/bin/python scripts/patch_scene_data.py --scenes 300 --seed0 0 --out /tmp/e0.npz
    .venv/bin/python scripts/patch_scene_data.py --scenes 100 --seed0 500 --out /tmp/e500.npz
    # torch for training only, in its own environment (the CPU wheel; never a runtime dependency):
    python3 -m venv /tmp/trainvenv && /tmp/trainvenv/bin/pip install torch==2.13.0 numpy opencv-python-headless pillow platformdirs
    # 8000 more 720p frames (2026-12-03, evening; two of these at once, 17 minutes each)
    .venv/bin/python scripts/patch_scene_data.py --scenes 4000 --seed0 103000 --out /tmp/s720_103000.npz
    .venv/bin/python scripts/patch_scene_data.py --scenes 4000 --seed0 107000 --out /tmp/s720_107000.npz
    PYTHONPATH=. /tmp/trainvenv/bin/python -m vision.patch_train --data /tmp/synth.npz /tmp/s720.npz \
        /tmp/s720_103000.npz /tmp/s720_107000.npz /tmp/sdecks.npz /tmp/s1080.npz \
        --test-data /tmp/e0.npz /tmp/e500.npz --hold 0 --epochs 10 --widths 24,48,96 --hidden 192 --seed 3

(287 809 samples; about 50 minutes of drawing and 59 of training on one
core; the narrower network took 31).  The drawn corners alone (the first
weights: 8, 16 and 32 channels, 64 hidden) read 60 % of the
right-way-round patches of bench/vision.py's frames right; with 3000 720p
frames' patches, 90 %; with 11 000 (16-128), rank right on 95.7 % of seeds
0-299's right-way patches (94.0 % with 3000 frames), suit 96.9 % (96.1 %).
Fine-tuning those weights on the same samples instead (``--init`` them,
``--lr 5e-4``, 3 epochs) reached 95.1 % and 96.5 %, and read no more cards
in the scenes.  The wider shipped network, on the same samples: rank 95.8
%, suit 96.9 %, both right 92.9 % (92.7 %); sure of both at 0.8 on 1676 of
the 1975 patches (1643), wrong on 65 of them (73); on seeds 500-599 both
right 95.5 % (94.7 %).  It costs 0.47 ms a patch in numpy (0.29 ms).

The second network (``patch_model_frames.npz``, sessions 54 and 55; read with the
first by their weighted geometric mean, patch_model.ensemble) has the same shape and
was trained apart, on frames' patches alone and on seeds no other weights
used (two data runs at once, 25 minutes; 28 minutes of training with two
threads):

    .venv/bin/python scripts/patch_scene_data.py --scenes 3500 --seed0 130000 --out /tmp/s720_130000.npz
    .venv/bin/python scripts/patch_scene_data.py --scenes 3500 --seed0 134000 --out /tmp/s720_134000.npz
    .venv/bin/python scripts/patch_scene_data.py --scenes 800 --seed0 300000 --decks --out /tmp/sdecks.npz
    .venv/bin/python scripts/patch_scene_data.py --scenes 200 --seed0 0 --out /tmp/e0.npz
    PYTHONPATH=. /tmp/trainvenv/bin/python -m vision.patch_train --data /tmp/s720_130000.npz /tmp/s720_134000.npz \
        /tmp/sdecks.npz --test-data /tmp/e0.npz --hold 0 --epochs 10 --widths 24,48,96 --hidden 192 --seed 11 \
        --threads 2 --out vision/patch_model_frames.npz

(127 130 samples, 48 194 of them cards.)  Session 55 drew the same
seeds again with the same command after bench.reader_patches stopped
labelling junk a corner at one card's index that runs along another
card's edges (session 54's network learnt from 135 372 samples, 8000-odd
of them such junk).  On e0 drawn so (3456 samples) this network alone
reads rank 95.9 % and suit 96.2 % (session 54's 95.6 % and 96.0 %), and
with the first, sure of both at 0.75, 1152 right and 27 wrong (1146 and
24).  In the frames it finds 14 more 720p cards and misreads 4 more, and
finds 14 more of the held-out decks' cards, misreading as many.  Alone it
reads less than the first (e0 as session 54 drew it: rank 95.6 % against
96.2 %, suit 96.1 % against 97.1 %); the pair's geometric mean is surer
where the two agree and less sure where they do not (session 54's
networks, rank and suit both at 0.9 or more: 1026 right and 31 wrong,
against the first alone's 993 and 31; the arithmetic mean 982 and 25,
and fewer cards found in the frames).  e0 is benchmark seeds 0-199,
watched and used to choose the mean, never trained on.

Session 59 trained the first network again by its recipe above, with
the same seeds drawn again after that labelling fix (274 225 samples
instead of 287 809; three data runs at once, 42 minutes, then 62 minutes
of training with two threads; e0 drawn with the fix as the only test
data).  Alone on e0 it read rank 96.9 % and suit 96.3 % (the shipped
first: 96.2 % and 97.1 %); beside the second, sure of both at 0.75, 1148
right and 27 wrong (the shipped pair: 1152 and 27).  At 720p and on the
held-out decks it found a few more cards and misread more (720p seeds
0-999 5429 / 5362 / 67 -> 5432 / 5359 / 73 found / right / misread; the
decks 1721 / 1701 / 20 -> 1743 / 1714 / 29), and on their photos it
found two fewer (518 / 516 / 2 -> 516 / 515 / 1), so it was not
shipped: the label fix is not what the first network lacks.  In place
of the second network (the shipped first two thirds; e0 at 0.75: 1155
right, 22 wrong) 720p read 5438 / 5362 / 76, nine more cards found and
all nine misread.

It writes vision/patch_model.npz (or ``--out``).  Drawn samples are index patches as the
reader gets them: a corner index drawn in a random deck design
(:mod:`vision.glyph_train`'s designs: many fonts, sizes, weights, colours,
French court letters), or the corner of a third-party deck's face (the even
half of :func:`train_decks`' English decks by name; the other half is held
out, so that bench.vision_decks on those measures decks never seen),
photographed by glyph_train's simulated camera (0.95-4.5 px/mm, blur, noise,
JPEG, the corner estimate a little off) and sampled back upright.  Junk,
labelled as the rank head's last class: the same corners sampled sideways
or upside down (the wrong edge assignment, a corner across an index), a
card corner without an index, table and clutter without a card, and letters
that are not ranks."""

from __future__ import annotations

import argparse
import os
import time

import cv2
import numpy as np
from PIL import Image, ImageDraw

from . import geometry as g
from .cardart import PX
from .glyph_train import _MARGIN, _RANK_W, _SUIT_P, _corner_tile, _photograph, _random_style, training_fonts
from .glyphs import RANKS, SUITS
from .patch_model import CONVS, MODEL_PATH, RANK_CLASSES, patch_inputs

JUNK = len(RANK_CLASSES) - 1
_NOT_RANKS = "BCEFGHLMNPSUWXYZbdefghkmnprstuvwxyz#%&?"


def train_decks(held_out: bool = False) -> list:
    """The English third-party decks trained on (or, ``held_out``, the
    others): sorted by name, every second one from the first trains."""
    from .decks import decks

    english = sorted((d for d in decks(english_only=True)), key=lambda d: d.name)
    return english[1::2] if held_out else english[0::2]


def _tile_size() -> tuple[int, int]:
    return int((g.INDEX_BOX_W + 2 * _MARGIN + 6) * PX), int((g.INDEX_BOX_H + 2 * _MARGIN + 6) * PX)


def _deck_tile(rng: np.random.Generator, face: np.ndarray) -> np.ndarray:
    """A third-party face's top-left corner on a random table, laid out as glyph_train's tiles."""
    tw, th = _tile_size()
    m = int(_MARGIN * PX)
    img = np.empty((th, tw, 3), np.float32)
    img[:] = rng.integers(20, 200, 3)
    part = face[: th - m, : tw - m].astype(np.float32)
    a = part[..., 3:4] / 255.0
    img[m:, m:] = part[..., :3] * a + img[m:, m:] * (1 - a)
    return img.astype(np.uint8)


def _clutter_tile(rng: np.random.Generator, with_card: bool) -> np.ndarray:
    """Table (or a blank card corner) with random shapes: hands, edges, strokes, blots."""
    tw, th = _tile_size()
    img = Image.new("RGB", (tw, th), tuple(int(v) for v in rng.integers(20, 230, 3)))
    d = ImageDraw.Draw(img)
    m = int(_MARGIN * PX)
    if with_card:
        d.rounded_rectangle([m, m, tw + 50, th + 50], radius=int(g.CARD_RADIUS * PX), fill=tuple(int(v) for v in rng.integers(215, 256, 3)))
    for _ in range(int(rng.integers(0, 6))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        x0, y0 = rng.uniform(0, tw), rng.uniform(0, th)
        x1, y1 = x0 + rng.uniform(-tw / 2, tw / 2), y0 + rng.uniform(-th / 2, th / 2)
        kind = rng.random()
        if kind < 0.35:
            d.ellipse([min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)], fill=colour)
        elif kind < 0.7:
            d.line([x0, y0, x1, y1], fill=colour, width=int(rng.integers(2, 30)))
        else:
            d.rectangle([min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)], fill=colour)
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


def _not_a_rank_tile(rng: np.random.Generator, fonts: list[str]) -> np.ndarray:
    """An index whose rank is a letter or sign no English deck uses."""
    from .cardart import text_image
    from .glyphs import RED_SUITS

    style = _random_style(rng, fonts)
    suit = str(rng.choice(SUITS))
    tile = _corner_tile(rng, "A", suit, style)
    # paint the rank over with paper, then write the other letter in its place
    m = int(_MARGIN * PX)
    cx, y = m + style.index_x * PX, m + style.index_y * PX
    h = int(style.rank_h * PX)
    paper = style.paper[::-1]
    cv2.rectangle(tile, (int(cx - 0.7 * h), int(y) - 2), (int(cx + 0.7 * h), int(y + h) + 2), paper, -1)
    letter = str(rng.choice(list(_NOT_RANKS)))
    ink = np.asarray(text_image(letter, style.rank_font, h, style.condensed))
    colour = np.array((style.red if suit in RED_SUITS else style.black)[::-1], np.float32)
    x0 = int(cx - ink.shape[1] / 2)
    y0 = int(y)
    region = tile[y0 : y0 + ink.shape[0], x0 : x0 + ink.shape[1]].astype(np.float32)
    a = ink[: region.shape[0], : region.shape[1], None] / 255.0
    tile[y0 : y0 + region.shape[0], x0 : x0 + region.shape[1]] = (colour * a + region * (1 - a)).astype(np.uint8)
    return tile


def _far(rng: np.random.Generator) -> tuple[float, float]:
    return float(rng.uniform(6, 16)), float(rng.uniform(10, 30))


def draw_patches(n: int, seed: int, font_dirs: tuple[str, ...] = (), deck_share: float = 0.25) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` or more training patches as network input (float16), rank class
    and suit class (-1 for junk)."""
    rng = np.random.default_rng(seed)
    fonts = training_fonts(font_dirs)
    decks = train_decks() if deck_share > 0 else []
    X, R, S = [], [], []

    def add(patch: np.ndarray, rank: int, suit: int) -> None:
        X.append(patch_inputs(patch)[0].astype(np.float16))
        R.append(rank)
        S.append(suit)

    while len(X) < n:
        u = rng.random()
        if u < 0.12:
            kind = rng.random()
            if kind < 0.4:
                tile = _clutter_tile(rng, with_card=True)
            elif kind < 0.7:
                tile = _clutter_tile(rng, with_card=False)
            else:
                tile = _not_a_rank_tile(rng, fonts)
            add(_photograph(rng, tile, "upright"), JUNK, -1)
            continue
        rank = str(rng.choice(RANKS, p=_RANK_W / _RANK_W.sum()))
        suit = str(rng.choice(SUITS, p=_SUIT_P))
        if decks and u < 0.12 + deck_share:
            tile = _deck_tile(rng, decks[int(rng.integers(len(decks)))](rank, suit))
        else:
            tile = _corner_tile(rng, rank, suit, _random_style(rng, fonts))
        add(_photograph(rng, tile, "upright"), RANKS.index(rank), SUITS.index(suit))
        if rng.random() < 0.5:
            view = "transposed" if rng.random() < 0.6 else "inverted"
            add(_photograph(rng, tile, view, _far(rng)), JUNK, -1)
    return np.stack(X), np.array(R), np.array(S)


def _draw_parallel(n: int, seed: int, jobs: int, font_dirs: tuple[str, ...]):
    if jobs <= 1:
        return draw_patches(n, seed, font_dirs)
    import multiprocessing

    chunk = -(-n // jobs)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        parts = pool.starmap(draw_patches, [(chunk, seed * 1000 + j, font_dirs) for j in range(jobs)])
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


def build(widths: tuple[int, ...] = (8, 16, 32), hidden: int = 64):
    """The torch network matching patch_model.PatchNet."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            cin = 2
            for name, c in zip(CONVS, widths, strict=True):
                setattr(self, name, nn.Conv2d(cin, c, 3, padding=1))
                cin = c
            from .patch_model import IN_H, IN_W

            h, w = IN_H, IN_W
            for _ in CONVS:
                h, w = h // 2, w // 2
            self.fc = nn.Linear(cin * h * w, hidden)
            self.rank = nn.Linear(hidden, len(RANK_CLASSES))
            self.suit = nn.Linear(hidden, len(SUITS))
            self.drop = nn.Dropout(0.2)

        def forward(self, x):
            for name in CONVS:
                x = torch.max_pool2d(torch.relu(getattr(self, name)(x)), 2)
            h = self.drop(torch.relu(self.fc(x.flatten(1))))
            return self.rank(h), self.suit(h)

    return Net()


def train(
    X, R, S, epochs: int, seed: int, widths, hidden, log=print, test=None, checkpoint: str | None = None, threads: int = 1,
    init: str | None = None, lr: float = 3e-3,
):
    """``init``: a weights file (export's layout) to start from, so that
    more frames' patches fine-tune the shipped network (a lower ``lr``)
    instead of training one afresh."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    torch.set_num_threads(threads)  # two threads spin on a busy machine: five times the CPU per step
    net = build(widths, hidden)
    if init is not None:
        net.load_state_dict(_state_dict(init))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * (-(-len(X) // 128))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    Xt, Rt, St = torch.from_numpy(X), torch.from_numpy(R).long(), torch.from_numpy(S).long()
    ce_r = nn.CrossEntropyLoss(label_smoothing=0.02)
    ce_s = nn.CrossEntropyLoss(ignore_index=-1, label_smoothing=0.02)
    t0 = time.time()
    for ep in range(epochs):
        net.train()
        order = torch.randperm(len(X))
        total = 0.0
        for i in range(0, len(X), 128):
            idx = order[i : i + 128]
            x = Xt[idx].float()
            # brightness/contrast jitter on the normalised input
            x = x * (1 + 0.2 * (torch.rand(len(idx), 1, 1, 1) - 0.5))
            # the corner finder's estimate is a pixel off either way as often as not
            dy, dx = (int(v) for v in rng.integers(-1, 2, 2))
            if dy or dx:
                x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
            zr, zs = net(x)
            loss = ce_r(zr, Rt[idx]) + ce_s(zs, St[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        msg = f"  epoch {ep + 1}/{epochs}: loss {total / len(X):.4f} ({time.time() - t0:.0f} s)"
        for name, data in (test or {}).items():
            msg += f"  {name}: " + evaluate(net, *data)
        log(msg)
        if checkpoint:
            export(net, checkpoint)
    return net


def evaluate(net, X, R, S) -> str:
    import torch

    net.eval()
    with torch.no_grad():
        zr, zs = [], []
        for i in range(0, len(X), 2000):
            a, b = net(torch.from_numpy(X[i : i + 2000]).float())
            zr.append(torch.softmax(a, 1).numpy())
            zs.append(torch.softmax(b, 1).numpy())
    pr, ps = np.concatenate(zr), np.concatenate(zs)
    real = R != JUNK
    rank_ok = (pr.argmax(1) == R)[real].mean()
    suit_ok = (ps.argmax(1) == S)[real].mean()
    junk_ok = (pr.argmax(1) == JUNK)[~real].mean()
    sure = (pr.max(1) > 0.95) & (pr.argmax(1) != JUNK) & (ps.max(1) > 0.95)
    wrong_sure = sure & ((pr.argmax(1) != R) | (ps.argmax(1) != S))
    return f"rank {rank_ok:.4f} suit {suit_ok:.4f} junk {junk_ok:.4f} | sure {sure[real].mean():.3f} of cards, sure-wrong {wrong_sure.sum()} of {len(R)}"


def _state_dict(path: str) -> dict:
    """export's file back as a torch state dict (its names, and its arrays as tensors)."""
    import torch

    d = np.load(path)
    return {k[:-2] + (".weight" if k.endswith("_w") else ".bias"): torch.from_numpy(d[k]) for k in d.files}


def export(net, path: str) -> None:
    out = {k.replace(".weight", "_w").replace(".bias", "_b"): v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    np.savez_compressed(path, **out)


def main() -> None:
    ap = argparse.ArgumentParser(description="train the whole corner-index network")
    ap.add_argument("--samples", type=int, default=90000)
    ap.add_argument("--epochs", type=int, default=10, help="0: only draw the samples (into --data)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--widths", default="8,16,32")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--font-dir", action="append", default=[])
    ap.add_argument("--data", nargs="+", help=".npz files of drawn samples to train on (with --epochs 0: where to write them)")
    ap.add_argument("--test-data", nargs="*", default=[], help=".npz samples scored after every epoch as well (scripts/patch_scene_data.py on other seeds)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hold", type=float, default=1 / 12, help="share of the samples (the first ones) held out of training to test on")
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--init", help="weights file to start from (fine-tuning; give its --widths and --hidden)")
    ap.add_argument("--lr", type=float, default=3e-3, help="the one-cycle schedule's peak learning rate")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    t = time.time()
    if args.data and all(os.path.exists(p) for p in args.data) and args.epochs > 0:
        ds = [np.load(p) for p in args.data]
        X, R, S = (np.concatenate([d[k] for d in ds]) for k in "XRS")
    else:
        X, R, S = _draw_parallel(args.samples, args.seed, args.jobs, tuple(args.font_dir))
        if args.data:
            np.savez(args.data[0], X=X, R=R, S=S)
    if args.epochs == 0:
        print(f"{len(X)} patches drawn in {time.time() - t:.0f} s")
        return
    cut = int(len(X) * args.hold)
    print(f"{len(X) - cut} training patches, {cut} test, drawn in {time.time() - t:.0f} s ({(R == JUNK).mean():.2f} junk)", flush=True)
    widths = tuple(int(v) for v in args.widths.split(","))
    tests = {"held": (X[:cut], R[:cut], S[:cut])} if cut else {}
    for path in args.test_data:
        d = np.load(path)
        tests[os.path.basename(path)] = (d["X"], d["R"], d["S"])
    net = train(
        X[cut:], R[cut:], S[cut:], args.epochs, args.seed, widths, args.hidden,
        log=lambda s: print(s, flush=True), test=tests, checkpoint=args.out, threads=args.threads, init=args.init, lr=args.lr,
    )
    export(net, args.out)
    print(f"wrote {args.out} in {time.time() - t:.0f} s")


if __name__ == "__main__":
    main()
