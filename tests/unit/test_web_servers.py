"""`WEB_SERVER` picks the HTTP server of `donkeypost serve` and `donkeypost web`."""

from __future__ import annotations

import pytest

from donkeypost.cli import main
from donkeypost.serve import ServeOptions, children, options_from
from donkeypost.settings import Settings, SettingsError


def test_gunicorn_with_gevent_is_the_default_and_granian_the_other_choice():
    assert Settings.from_env({}).web_server == "gunicorn"
    assert Settings.from_env({"WEB_SERVER": "Granian"}).web_server == "granian"
    with pytest.raises(SettingsError, match="WEB_SERVER='uwsgi' is not valid"):
        Settings.from_env({"WEB_SERVER": "uwsgi"})


def test_the_command_line_wins_over_the_setting():
    settings = Settings(web_server="granian")
    assert options_from(settings).web_server == "granian"
    assert options_from(settings, web_server="gunicorn").web_server == "gunicorn"


def _web_argv(server: str) -> list[str]:
    options = ServeOptions(host="::", port=8123, web_workers=3, web_connections=700,
                           bot_workers=1, data_dir=None, web_server=server)  # type: ignore[arg-type]
    [web] = [c for c in children(options, "redis://localhost:1/0", None) if c.name == "web"]
    return list(web.argv)


def test_serve_runs_the_chosen_server_with_the_workers_and_connections_asked():
    gunicorn = " ".join(_web_argv("gunicorn"))
    assert ("-m gunicorn --config python:donkeypost.gunicorn_config "
            "--worker-class donkeypost.gunicorn_worker.JsonErrorsWorker "
            "--limit-request-line 8190 --workers 3 --worker-connections 700") in gunicorn
    assert "--bind [::]:8123 --reuse-port" in gunicorn
    granian = " ".join(_web_argv("granian"))
    assert "-m granian --interface wsgi --host :: --port 8123 --workers 3" in granian
    # A held request is a thread: as many threads as connections, no more admitted.
    assert "--blocking-threads 700 --backpressure 700" in granian
    assert "--respawn-failed-workers" in granian
    assert granian.endswith("donkeypost.wsgi:app")


def test_web_needs_the_games_redis(monkeypatch, capsys):
    for name in ("REDIS_URL", "REDIS_CLUSTER_URL"):
        monkeypatch.delenv(name, raising=False)
    assert main(["web"]) == 2
    assert "REDIS_URL is not set" in capsys.readouterr().err


def test_the_procfile_web_process_is_donkeypost_web():
    from pathlib import Path

    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text()
    web = next(line for line in procfile.splitlines() if line.startswith("web:"))
    # The server comes from the settings (WEB_SERVER, PORT, WEB_CONNECTIONS), as in serve.
    assert web.split()[1:3] == ["donkeypost", "web"]
