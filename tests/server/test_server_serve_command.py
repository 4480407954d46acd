"""`hippodrome serve`: prints its address, serves the lobby, stores tables where --db says."""

import json
import os
import re
import subprocess
import sys
import urllib.request

from hippodrome.i18n import translate
from hippodrome.server.storage import Storage, db_path_from, default_db_path


def test_serve_prints_its_address_and_serves_the_lobby(tmp_path):
    db = tmp_path / "served.sqlite3"
    process = subprocess.Popen([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--port", "0",
                                "--db", f"sqlite:///{db}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        url = match.group(0)
        assert "hippodrome" in urllib.request.urlopen(url, timeout=10).read().decode()
        body = json.dumps({"game": "turfmaster-race",
                           "setup": {"horses": [{"id": "red", "owner": 0}, {"id": "blue", "owner": 1}]},
                           "seats": [{"name": "A"}, {"name": "B", "kind": "bot"}]}).encode()
        request = urllib.request.Request(url + "api/tables", data=body, headers={"Content-Type": "application/json"})
        created = json.loads(urllib.request.urlopen(request, timeout=10).read())
    finally:
        process.terminate()
        process.wait(10)
    assert Storage(db).table_ids() == [created["id"]]


def test_serve_refuses_a_database_it_cannot_use():
    result = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--db", "postgres://h/db"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "only SQLite" in result.stderr


def test_default_database_is_under_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "hippodrome" / "hippodrome.sqlite3"
    assert db_path_from(None) == str(tmp_path / "hippodrome" / "hippodrome.sqlite3")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "hippodrome" / "hippodrome.sqlite3"


def test_serve_speaks_the_language_of_lang():
    result = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--no-browser", "--lang", "de",
                             "--db", "postgres://h/db"], capture_output=True, text=True, timeout=30)
    reason = translate("de", "unsupported database URL {url}: only SQLite is supported (sqlite:///path)",
                       url="'postgres://h/db'")
    assert result.returncode == 2
    assert result.stderr.strip() == translate("de", "cannot open the database: {error}", error=reason)
    help_text = subprocess.run([sys.executable, "-m", "hippodrome", "serve", "--help"], capture_output=True,
                               text=True, timeout=30, env={**os.environ, "LANGUAGE": "de", "COLUMNS": "200"}).stdout
    assert translate("de", "Do not open the lobby in a browser.") in help_text
