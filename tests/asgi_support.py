"""GET requests through the production ASGI application (``site_config.asgi``), as uvicorn
drives it, telling whether a request reached Django or was answered in front of it."""

from __future__ import annotations

import asyncio


def asgi_getter(monkeypatch):
    """``get(path, query=b"", headers=())`` → (status, headers, body, reached Django)."""
    from games.play import live

    # Importing site_config.asgi marks this process as one that serves streams: undone
    # after the test, or later tests' pages would link streams nobody serves.
    monkeypatch.setattr(live, "serves_streams", live.serves_streams)
    from site_config import asgi

    reached = []
    real_pages = asgi.pages

    async def pages(scope, receive, send):
        reached.append(scope["path"])
        await real_pages(scope, receive, send)

    monkeypatch.setattr(asgi, "pages", pages)

    def get(path: str, query: bytes = b"", headers=()):
        scope = {
            "type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
            "query_string": query, "root_path": "", "scheme": "http", "http_version": "1.1",
            "server": ("testserver", 80), "client": ("127.0.0.1", 40000),
            "headers": [(b"host", b"testserver"), *headers],
        }  # fmt: skip
        messages = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            messages.append(message)

        before = len(reached)
        asyncio.run(asgi.application(scope, receive, send))
        start = next(m for m in messages if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
        found = {n.decode(): v.decode() for n, v in start["headers"]}
        return start["status"], found, body, len(reached) > before

    return get
