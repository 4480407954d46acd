"""The server in each person's language: which language a request or connection speaks, the
errors it is sent (machine-readable and translated), and the pages with their shared head.

A request's language is its ``lang`` cookie (set by the pages' language selector) when that names
one of our languages, else its Accept-Language header (``negotiate``). A websocket connection
starts with its handshake's language and may change it with the ``lang`` field of ``join``.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Mapping

from hippodrome.i18n import Message, error_to_json, localize_text, negotiate, normalize

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
HEAD_INCLUDE = "<!--#include head.html-->"
HTML_LANG = '<html lang="en">'
PROBLEM, BACK = "<!--#problem-->", "<!--#back-->"


def language_of(cookies: Mapping[str, str], headers: Mapping[str, str]) -> str:
    """The language of a request: the ``lang`` cookie, else Accept-Language, else English."""
    return normalize(cookies.get("lang")) or negotiate(headers.get("accept-language"))


def message_json(text: Any) -> dict[str, Any] | None:
    """The ``{"msgid", "params"}`` form of a message, for a page that re-renders it itself."""
    to_json = getattr(text, "to_json", None)
    return to_json() if callable(to_json) else None


def problem(lang: str, code: str, message: Message, **extra: Any) -> dict[str, Any]:
    """An error about the request itself: ``code`` for programs, ``message`` for people."""
    return {"type": "error", "code": code, "message": message.translate(lang),
            "message_i18n": message.to_json(), **extra}


def refusal(lang: str, code: str, error: BaseException, **extra: Any) -> dict[str, Any]:
    """An error raised by the table or an engine: its class, its message in ``lang``, the
    actions that were allowed (``IllegalAction.allowed``), as ``error_to_json`` gives them, and the
    ruling it comes from (``rule``: "T4", for the page's link to the rules page) when it names one."""
    details = error_details(error, lang)
    rule = getattr(error, "rule", None)
    return {"type": "error", "code": code, "message": details["message"], "error": details["error"],
            "message_i18n": details["message_i18n"], **extra,
            **({"allowed": details["allowed"][:60]} if details.get("allowed") else {}),
            **({"rule": rule} if isinstance(rule, str) else {})}


def error_details(error: BaseException, lang: str) -> dict[str, Any]:
    """``error_to_json`` plus ``message_i18n``, the JSON form of the error's message."""
    first = error.args[0] if error.args else None
    return {**error_to_json(error, lang), "message_i18n": message_json(first)}


class LobbyError(Exception):
    """An HTTP error of the lobby API, answered as ``{"detail", "error", "message_i18n"}`` with
    ``detail`` in the request's language (see ``create_app``'s handler)."""

    def __init__(self, status: int, message: Any, code: str, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})

    def body(self, lang: str) -> dict[str, Any]:
        if isinstance(self.message, BaseException):
            details = error_details(self.message, lang)
            return {"detail": details["message"], "error": self.code, "kind": details["error"],
                    "message_i18n": details["message_i18n"]}
        return {"detail": localize_text(self.message, lang), "error": self.code,
                "message_i18n": message_json(self.message)}


def quoted(text: str, limit: int = 40) -> str:
    """``text`` as a message shows what a client sent: quoted, cut after ``limit`` characters, and
    with anything that is not valid Unicode (a lone surrogate) escaped."""
    shown = repr(text[:limit] + ("..." if len(text) > limit else ""))
    return shown.encode("utf-8", "backslashreplace").decode("utf-8")


def _page_source(name: str) -> str:
    head = (WEB_DIR / "head.html").read_text(encoding="utf-8").strip()
    return (WEB_DIR / name).read_text(encoding="utf-8").replace(HEAD_INCLUDE, head)


def render_page(name: str, lang: str) -> str:
    """A page with the shared head put in and ``<html lang>`` set to the reader's language."""
    return _page_source(name).replace(HTML_LANG, f'<html lang="{lang}">', 1)


def render_problem_page(message: Message, lang: str) -> str:
    """A page saying in words, in the reader's language, why an address shows nothing (a rules page
    of a game that does not exist), with the way back to the lobby."""
    # NOTE: the link from a page that found nothing back to the lobby.
    back = Message("Back to the lobby")
    return (render_page("problem.html", lang).replace(PROBLEM, html.escape(message.translate(lang)))
            .replace(BACK, html.escape(back.translate(lang))))
