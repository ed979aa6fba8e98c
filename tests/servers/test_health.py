"""/healthz on a real app server: what a load balancer sees when all is well and when the
cache is gone (a Redis that does not answer, not a mock): degraded, but still serving."""

from __future__ import annotations

import json

import pytest

from tests.servers.conftest import AppServer, Visitor, free_port

pytestmark = pytest.mark.servers


def test_healthz_on_a_real_server_ok_and_degraded_with_its_redis_gone(servers, backends, tmp_path):
    (server,) = servers(1)
    reply = Visitor(server).get("/healthz")
    assert reply.status == 200
    assert json.loads(reply.text)["status"] == "ok"
    assert reply.headers["Cache-Control"] == "no-store"
    assert reply.headers.get("Set-Cookie") is None

    # The same app, pointed at a Redis that is not there (nothing listens on the port).
    env = {**backends.env, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    broken = AppServer("no-redis", env, tmp_path)
    try:
        broken.start()  # 200: the server serves, uncached; a balancer keeps it
        reply = Visitor(broken).get("/healthz")
        assert reply.status == 200
        body = json.loads(reply.text)
        assert body["status"] == "degraded"
        assert body["checks"]["database"]["ok"] is True
        assert body["checks"]["cache"]["ok"] is False
        assert "127.0.0.1" not in reply.text  # the error's name only, no address
        assert reply.headers["Cache-Control"] == "no-store"
        # The degraded probe is in the access log, the healthy ones are not.
        assert [line["status"] for line in broken.access_log() if line["path"] == "/healthz"]
        assert not [line for line in server.access_log() if line["path"] == "/healthz"]
    finally:
        broken.stop()
