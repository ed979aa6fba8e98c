import pytest
from django.test import RequestFactory

from site_config.ratelimit import Limit, _key, client_ip, hit


def request(remote, forwarded=None):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


def test_without_trusted_proxy_the_remote_address_counts(settings):
    settings.TRUSTED_PROXIES = []
    assert client_ip(request("203.0.113.5", "198.51.100.1")) == "203.0.113.5"


def test_behind_a_trusted_proxy_the_forwarded_client_counts(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert client_ip(request("127.0.0.1", "198.51.100.7")) == "198.51.100.7"
    # Two readers behind the same proxy are two addresses, not one.
    assert client_ip(request("127.0.0.1", "198.51.100.8")) == "198.51.100.8"


def test_a_forged_left_most_entry_is_ignored(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.2"]
    # The client wrote "1.2.3.4" itself; the proxies appended the real address and themselves.
    assert client_ip(request("127.0.0.1", "1.2.3.4, 198.51.100.9, 10.0.0.2")) == "198.51.100.9"


def test_forwarded_header_from_an_untrusted_peer_is_ignored(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert client_ip(request("203.0.113.5", "198.51.100.1")) == "203.0.113.5"


def test_keys_never_contain_the_address():
    key = _key(Limit("x", 1, 60), "192.0.2.44")
    assert "192.0.2.44" not in key and key.startswith("ratelimit:x:")


@pytest.mark.parametrize("count", [1, 3])
def test_hit_allows_exactly_count_events(count):
    limit = Limit(f"test-{count}", count, 60)
    results = [hit(limit, "client") for _ in range(count + 2)]
    assert results == [False] * count + [True, True]
