"""Fetch the browser assets the pages need and the repository does not hold.

Today that is the Socket.IO browser client (``socket.io-client``, a 4.x
release: Engine.IO protocol 4 / Socket.IO protocol 5, which python-socketio 5
speaks).  Its package tarball is downloaded from the npm registry over HTTPS
(``$NPM_CONFIG_REGISTRY``, else https://registry.npmjs.org/) with Python
alone, so a Pi needs no Node.js; the tarball must match the pinned SHA-512
integrity the registry published for that release, or nothing is kept.  When
the registry cannot be reached and npm is installed, ``npm pack`` is tried.
Only ``dist/socket.io.min.js`` (plus its source map) is kept in
``templates/static/vendor/`` (git-ignored); no page ever loads a script from
the internet, since a venue may have none.

    python scripts/fetch_assets.py [--force]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

PACKAGE = "socket.io-client"
VERSION = "4.8.1"
INTEGRITY = "sha512-hJVXfu3E28NmzGk8o1sHhN3om52tRvwYeidbj7xKy2eIIse5IoKX3USlS6Tqt3BHAtflLIkCQBkzVrEEfWUyYQ=="
"""The registry's ``dist.integrity`` of socket.io-client 4.8.1 (Subresource Integrity form)."""
ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "templates" / "static" / "vendor"
FILES = {"package/dist/socket.io.min.js": "socket.io.min.js", "package/dist/socket.io.min.js.map": "socket.io.min.js.map"}


def fetch(force: bool = False) -> int:
    target = VENDOR / "socket.io.min.js"
    stamp = VENDOR / "VERSION"
    if target.exists() and stamp.exists() and stamp.read_text().strip() == f"{PACKAGE}@{VERSION}" and not force:
        print(f"fetch_assets: {PACKAGE}@{VERSION} already in {VENDOR.relative_to(ROOT)}")
        return 0
    tarball = download() or npm_pack()
    if tarball is None:
        print(f"fetch_assets: {PACKAGE}@{VERSION} could not be fetched; the pages need it.\n"
              f"  Run again with the npm registry reachable: python scripts/fetch_assets.py\n"
              f"  or copy dist/socket.io.min.js of {PACKAGE} {VERSION} to {target}", file=sys.stderr)
        return 0  # setup goes on: the server runs, only the browser pages lack their client
    if not _intact(tarball):
        print(f"fetch_assets: the {PACKAGE}@{VERSION} tarball does not match its published integrity; "
              "nothing kept", file=sys.stderr)
        return 1
    VENDOR.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(tarball)) as tar:
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


def _intact(tarball: bytes) -> bool:
    algorithm, _, expected = INTEGRITY.partition("-")
    return base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode() == expected


def download() -> bytes | None:
    """The package tarball straight from the registry (no Node.js needed), or None."""
    registry = (os.environ.get("NPM_CONFIG_REGISTRY") or os.environ.get("npm_config_registry")
                or "https://registry.npmjs.org/").rstrip("/")
    url = f"{registry}/{PACKAGE}/-/{PACKAGE}-{VERSION}.tgz"
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.read()
    except OSError as exc:
        print(f"fetch_assets: {url}: {exc}", file=sys.stderr)
        return None


def npm_pack() -> bytes | None:
    """The tarball through ``npm pack`` (whatever registry npm is set up for), when npm is installed."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([npm, "pack", f"{PACKAGE}@{VERSION}", "--silent"], cwd=tmp, capture_output=True,
                              text=True, timeout=300)
        tarballs = list(Path(tmp).glob("*.tgz"))
        if done.returncode != 0 or not tarballs:
            print(f"fetch_assets: npm pack {PACKAGE}@{VERSION} failed: {done.stderr.strip() or done.stdout.strip()}",
                  file=sys.stderr)
            return None
        return tarballs[0].read_bytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true", help="fetch again even when present")
    return fetch(parser.parse_args().force)


if __name__ == "__main__":
    sys.exit(main())
