"""Keep the engines' sentences translatable: extract their templates, merge, report what is missing.

The engines build the sentences a player reads (rejections and their fixes,
adapter questions, chance labels, "what to put back where") as English
f-strings with specifics in them (``f"{card} is not in your hand"``), so a
whole-message catalog cannot hold them.  This script reads the engine sources
with :mod:`ast` and turns every such string into a *template*: the literal text
with each ``{expression}`` kept as a placeholder.  The templates go into their
own gettext domain, ``engine`` (``companion/translations/engine.pot`` and
``<lang>/LC_MESSAGES/engine.po``), maintained with Babel's catalog API, and
:mod:`companion.i18n` matches a finished sentence against them at run time.

    python scripts/engine_messages.py extract   # engine.pot from engines/**.py
    python scripts/engine_messages.py update    # merge into every <lang>/engine.po (keeps translations)
    python scripts/engine_messages.py check     # templates without a translation (exit 1 if any)
    python scripts/engine_messages.py compile   # engine.po -> engine.mo
    python scripts/engine_messages.py all       # the four in order

Companion's own sentences go through ``_()`` and the ``messages`` catalog, but
the rejections it builds with ``Verdict.reject`` (companion/tables.py) are
English like the engines', so their strings are extracted here too.

What is left out, because no player reads it: docstrings, identifiers (no
space), ``str.join`` separators, and messages of exceptions other than
Reject/IllegalMove outside ``engines/core.py`` (data-file and programming
errors; core's ValueErrors become CORE-1 rejections, so they stay in).
"""

from __future__ import annotations

import ast
import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ROOT / "engines"
COMPANION = ROOT / "companion"
TRANSLATIONS = ROOT / "companion" / "translations"
DOMAIN = "engine"
POT = TRANSLATIONS / f"{DOMAIN}.pot"

PLAYER_EXCEPTIONS = {"Reject", "IllegalMove"}
"""Exceptions whose message reaches a player (``Verdict.reject`` is a call, not a raise)."""
CORE = "engines/core.py"
SKIP_FILES = {
    "engines/keener/catalog.py",  # the card database's load errors: for whoever edits the JSON
    "engines/gun_and_gun/cards.py",  # the same for ガンナガン's cards.json
    "engines/two_freakin_swords/grid.py",  # the engagement grid's load errors
    "engines/registry.py",
    "engines/playout.py",
}
WORD = re.compile(r"[A-Za-z]{2,}")
FIELD = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Template:
    text: str
    path: str
    line: int


def _placeholder(node: ast.FormattedValue) -> str:
    text = ast.unparse(node.value)
    if node.conversion != -1:
        text += "!" + chr(node.conversion)
    if node.format_spec is not None:
        text += ":" + "".join(
            v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"  # type: ignore[attr-defined]
            for v in node.format_spec.values)  # type: ignore[attr-defined]
    return "{" + text + "}"


def _literal(text: str) -> str:
    """A literal part of a template: braces doubled, as in an f-string (the placeholders are single)."""
    return text.replace("{", "{{").replace("}", "}}")


def _template(node: ast.AST) -> str | None:
    """The template of a string expression, or None when ``node`` holds no literal text."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _literal(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_literal(v.value) if isinstance(v, ast.Constant) else _placeholder(v)  # type: ignore[arg-type]
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else "{" + ast.unparse(node.left) + "}") + (
            right if right is not None else "{" + ast.unparse(node.right) + "}")
    return None


def _placeholders(node: ast.AST) -> Iterator[ast.AST]:
    """The expressions a template's placeholders stand for."""
    if isinstance(node, ast.JoinedStr):
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                yield v.value
    elif isinstance(node, ast.BinOp):
        for side in (node.left, node.right):
            yield from (_placeholders(side) if _template(side) is not None else (side,))


def _is_player_text(template: str) -> bool:
    """A sentence or phrase: a word of two letters or more, and a space, outside the placeholders."""
    literal = FIELD.sub("", template)
    return bool(WORD.search(literal)) and " " in literal


def _skipped_call(node: ast.Call, path: str) -> bool:
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "join":
        return True  # a separator
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if name in PLAYER_EXCEPTIONS or path == CORE:
        return False
    return name.endswith("Error") or name == "Exception"


def _verdict_call(node: ast.AST) -> bool:
    """``Verdict.reject(...)``, ``Reject(...)`` or ``IllegalMove(...)``: a rejection built outside the engines."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in PLAYER_EXCEPTIONS or (name == "reject" and ast.unparse(func).endswith("Verdict.reject"))


def templates_of(path: Path, only_verdicts: bool = False) -> Iterator[Template]:
    """The templates of one source file: every player-facing string of an engine file, or with
    ``only_verdicts`` (companion's files) only those inside a rejection it builds itself (the rest
    of companion's sentences go through ``_()`` and the ``messages`` catalog)."""
    rel = path.relative_to(ROOT).as_posix()
    if rel in SKIP_FILES:
        return
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
        # Attribute docstrings: a bare string right after an assignment.
        for stmt in getattr(node, "body", []) if isinstance(getattr(node, "body", None), list) else []:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                docstrings.add(id(stmt.value))

    def visit(node: ast.AST, skipped: bool) -> Iterator[Template]:
        if only_verdicts and skipped and _verdict_call(node):
            skipped = False
        elif isinstance(node, ast.Call) and _skipped_call(node, rel):
            skipped = True
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and _skipped_call(node.exc, rel):
            skipped = True
        template = None if id(node) in docstrings else _template(node)
        if template is not None:
            if not skipped and _is_player_text(template):
                yield Template(template, rel, node.lineno)  # type: ignore[attr-defined]
            # A whole string expression is one template; strings inside its placeholders are their own.
            for inner in _placeholders(node):
                yield from visit(inner, skipped)
            return
        for child in ast.iter_child_nodes(node):
            yield from visit(child, skipped)

    yield from visit(tree, only_verdicts)


def extract(root: Path = ENGINES) -> dict[str, list[Template]]:
    """Every template of the engines (and of the rejections companion builds), with where it occurs."""
    found: dict[str, list[Template]] = {}
    sources = [(path, False) for path in sorted(root.rglob("*.py"))]
    if root == ENGINES:
        sources += [(path, True) for path in sorted(COMPANION.rglob("*.py"))]
    for path, only_verdicts in sources:
        for t in templates_of(path, only_verdicts):
            found.setdefault(t.text, []).append(t)
    return found


def pot_catalog(found: dict[str, list[Template]]) -> Catalog:
    catalog = Catalog(project="Table Companion engines", domain=DOMAIN, charset="utf-8")
    for text, places in sorted(found.items(), key=lambda kv: (kv[1][0].path, kv[1][0].line)):
        catalog.add(text, locations=[(t.path, t.line) for t in places])
    return catalog


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in TRANSLATIONS.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, locale: str | None = None) -> Catalog:
    with open(path, "rb") as fh:
        return read_po(fh, locale=locale, domain=DOMAIN)


def write(path: Path, catalog: Catalog) -> None:
    """Write ``catalog`` unless the file already says the same (only its dates would change)."""
    out = io.BytesIO()
    write_po(out, catalog, width=120, sort_output=False, ignore_obsolete=False)
    dated = re.compile(rb'^"(POT-Creation|PO-Revision)-Date: .*$', re.MULTILINE)
    if path.exists() and dated.sub(b"", path.read_bytes()) == dated.sub(b"", out.getvalue()):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


MANUAL = "manual"
"""Auto-comment of templates no single string literal holds (built by concatenation at run time);
``update`` keeps them even though ``extract`` does not find them."""


def update() -> None:
    template = read(POT)
    for language in languages():
        path = po_path(language)
        catalog = read(path, language)
        manual = [m for m in catalog if m.id and MANUAL in m.auto_comments]
        catalog.update(template, no_fuzzy_matching=False)
        for m in manual:
            if m.id not in catalog:
                catalog[m.id] = m
            catalog.obsolete.pop(m.id, None)
        write(path, catalog)


def missing(language: str) -> list[str]:
    """Templates of the .pot without a reviewed translation in ``language`` (fuzzy counts as missing)."""
    catalog = read(po_path(language), language)
    wanted = [m.id for m in read(POT) if m.id]
    return [text for text in wanted if text not in catalog or not catalog[text].string or catalog[text].fuzzy]


def compile_all() -> None:
    for language in languages():
        catalog = read(po_path(language), language)
        with open(po_path(language).with_suffix(".mo"), "wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command in ("extract", "all"):
        found = extract()
        write(POT, pot_catalog(found))
        print(f"{len(found)} templates from {len({t.path for ts in found.values() for t in ts})} files -> {POT.relative_to(ROOT)}")
    if command in ("update", "all"):
        update()
    if command in ("check", "all"):
        status = 0
        for language in languages():
            gaps = missing(language)
            total = len([m for m in read(POT) if m.id])
            print(f"{language}: {total - len(gaps)} of {total} templates translated")
            for text in gaps:
                print(f"  missing: {text}")
            status = status or bool(gaps)
        if command == "check":
            return status
    if command in ("compile", "all"):
        compile_all()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
