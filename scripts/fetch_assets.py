"""Fetch the browser assets the pages need and the repository does not hold.

Today that is the Socket.IO browser client (``socket.io-client``, a 4.x
release: Engine.IO protocol 4 / Socket.IO protocol 5, which python-socketio 5
speaks).  It is fetched with ``npm pack`` from whatever registry npm is set up
for, unpacked, and only ``dist/socket.io.min.js`` (plus its source map) is kept
in ``templates/static/vendor/`` (git-ignored).  A Pi needs npm once, at setup;
no page ever loads a script from the internet, since a venue may have none.

    python scripts/fetch_assets.py [--force]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "socket.io-client"
VERSION = "4.8.1"
ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "templates" / "static" / "vendor"
FILES = {"package/dist/socket.io.min.js": "socket.io.min.js", "package/dist/socket.io.min.js.map": "socket.io.min.js.map"}


def fetch(force: bool = False) -> int:
    target = VENDOR / "socket.io.min.js"
    stamp = VENDOR / "VERSION"
    if target.exists() and stamp.exists() and stamp.read_text().strip() == f"{PACKAGE}@{VERSION}" and not force:
        print(f"fetch_assets: {PACKAGE}@{VERSION} already in {VENDOR.relative_to(ROOT)}")
        return 0
    npm = shutil.which("npm")
    if npm is None:
        print(f"fetch_assets: npm is not installed, so {PACKAGE}@{VERSION} was not fetched; the pages need it.\n"
              f"  Install npm (apt-get install npm) and run: python scripts/fetch_assets.py\n"
              f"  or copy dist/socket.io.min.js of {PACKAGE} {VERSION} to {target}", file=sys.stderr)
        return 0  # setup goes on: the server runs, only the browser pages lack their client
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([npm, "pack", f"{PACKAGE}@{VERSION}", "--silent"], cwd=tmp, capture_output=True,
                              text=True, timeout=300)
        tarballs = list(Path(tmp).glob("*.tgz"))
        if done.returncode != 0 or not tarballs:
            print(f"fetch_assets: npm pack {PACKAGE}@{VERSION} failed: {done.stderr.strip() or done.stdout.strip()}",
                  file=sys.stderr)
            return 1
        VENDOR.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tarballs[0]) as tar:
            for member, name in FILES.items():
                try:
                    source = tar.extractfile(member)
                except KeyError:
                    source = None
                if source is None:
                    if name.endswith(".map"):
                        continue
                    print(f"fetch_assets: {member} is missing from the package", file=sys.stderr)
                    return 1
                (VENDOR / name).write_bytes(source.read())
    stamp.write_text(f"{PACKAGE}@{VERSION}\n")
    print(f"fetch_assets: {PACKAGE}@{VERSION} -> {target.relative_to(ROOT)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true", help="fetch again even when present")
    return fetch(parser.parse_args().force)


if __name__ == "__main__":
    sys.exit(main())
