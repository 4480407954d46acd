"""``python -m hippodrome.i18n update|check|import FILE.json|glossary`` (translators' and developers' tool;
see docs/i18n.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from hippodrome.i18n.extract import import_translations, missing_translations, update_catalogs
from hippodrome.i18n.languages import LANGUAGES


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        for line in update_catalogs():
            print(line)  # i18n: developer tool
        return 0
    if command == "check":
        status = 0
        for lang in LANGUAGES:
            missing = missing_translations(lang)
            if missing:
                status = 1
                print(f"{lang}: {len(missing)} to translate")  # i18n: developer tool
                for msgid in missing:
                    print(f"    {msgid}")  # i18n: developer tool
        return status
    if command == "glossary":
        from hippodrome.i18n.glossary import write_glossaries
        for line in write_glossaries():
            print(line)  # i18n: developer tool
        return 0
    if command == "import" and len(argv) > 1 and not any(arg.startswith("-") for arg in argv[1:]):
        for path in argv[1:]:
            try:
                lines = import_translations(Path(path))
            except (OSError, ValueError) as error:   # no such file, or not a JSON list of translations
                print(f"cannot import {path}: {error}", file=sys.stderr)  # i18n: developer tool
                return 2
            for line in lines:
                print(line)  # i18n: developer tool
        return 0
    print("usage: python -m hippodrome.i18n update | check | import FILE.json ... | glossary", file=sys.stderr)  # i18n: developer tool
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
