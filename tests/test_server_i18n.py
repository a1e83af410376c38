"""The translation layer: catalogs compiled by Babel are used, English is the fallback."""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from companion import i18n


def test_a_compiled_catalog_translates_and_english_is_the_fallback(tmp_path, monkeypatch):
    catalog = Catalog(locale="ja")
    catalog.add("Wrong host PIN.", "ホストのPINが違います。")
    catalog.add("{card} is not yours", "{card}はあなたのカードではありません")
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as fh:
        write_mo(fh, catalog)
    monkeypatch.setattr(i18n, "TRANSLATIONS", tmp_path)
    i18n.catalog.cache_clear()
    try:
        assert i18n.gettext("Wrong host PIN.", "ja") == "ホストのPINが違います。"
        assert i18n.gettext("{card} is not yours", "ja", card="7♣") == "7♣はあなたのカードではありません"
        assert i18n.gettext("Wrong host PIN.", "en") == "Wrong host PIN."
        assert i18n.gettext("Wrong host PIN.", "fr") == "Wrong host PIN."  # no catalog: English
        verdict = {"ok": False, "rule": "TC-HOST", "message": "Wrong host PIN."}
        assert i18n.translate_verdict(verdict, "ja") == {**verdict, "message": "ホストのPINが違います。"}
        assert "ja" in i18n.languages()
        i18n.set_language("ja")
        assert i18n.gettext("Wrong host PIN.") == "ホストのPINが違います。"
    finally:
        i18n.set_language("en")
        i18n.catalog.cache_clear()


def test_the_message_template_lists_the_server_sentences():
    pot = (i18n.TRANSLATIONS / "messages.pot").read_text(encoding="utf-8")
    assert 'msgid "Wrong host PIN."' in pot and 'msgid "Join a seat"' in pot


def test_each_phone_reads_the_engines_sentences_in_its_own_language(tmp_path):
    """A rejection comes back in the language the phone joined in; an announcement to the whole table is
    said to each seat in its own language (the engines write English; companion.i18n translates)."""
    from companion.config import TableSpec
    from engines.core import Verdict
    from tests.support.server import Phone, thread_server

    with thread_server(tmp_path, [TableSpec("double-edge", seats=2, deal=5)]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        ja, en = Phone(srv.url), Phone(srv.url)
        try:
            assert ja.call("join", {"table": table.id, "token": table.seats[0].token, "lang": "ja"})["ok"]
            assert en.call("join", {"table": table.id, "token": table.seats[1].token, "lang": "en"})["ok"]
            wrong = {"type": "end-turn"}
            said_ja = ja.call("play", {"table": table.id, "move": wrong})
            said_en = en.call("play", {"table": table.id, "move": wrong})
            assert said_ja["verdict"] == {"ok": False, "rule": "DE-3.1",
                                          "message": "「手番を終える」 は今はできません：先にベースを作ってください",
                                          "fix": "手札から3枚をベースとして封印してください"}
            assert said_en["verdict"]["message"] == "end-turn is not allowed now: build your Base first"
            # The camera's illegal-move banner goes to everyone at once, each in its own language.
            referee = srv.server.hub.referee(table.id)
            verdict = Verdict.reject("DE-6.5", "4H is not in your hand", "play a card you hold").to_json()
            referee.run(referee.announce, "illegal", {"verdict": verdict})
            banner = ja.wait_for(lambda e, d: e == "illegal")[1]["verdict"]
            assert (banner["message"], banner["fix"]) == ("4H は手札にありません", "手札にあるカードを出してください")
            assert en.wait_for(lambda e, d: e == "illegal")[1]["verdict"]["message"] == "4H is not in your hand"
        finally:
            ja.close()
            en.close()
