"""HTTP/1.1 to servers the run started, always on the loopback address."""
import http.client
import socket
from urllib.parse import quote

HOST = "127.0.0.1"


def free_port():
    """A TCP port on HOST that was free when asked."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def get(port, path, timeout=5.0, headers=None):
    """One GET on a new connection: (status, headers as sent, body bytes)."""
    c = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        c.request("GET", path, headers=headers or {})
        r = c.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        c.close()


def post(port, path, body, content_type="application/json", timeout=60.0):
    """One POST on a new connection: (status, body bytes); status -1 when the server closed it unanswered."""
    c = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        c.request("POST", path, body=body, headers={"Content-Type": content_type})
        r = c.getresponse()
        return r.status, r.read()
    except (http.client.HTTPException, OSError):
        return -1, b""
    finally:
        c.close()


def query_value(text):
    """`text` percent-encoded for a query parameter (an ETag's quotes included)."""
    return quote(text, safe="")


class KeepAliveClient:
    """GETs over one kept-alive connection; a broken connection is reopened once per request."""

    def __init__(self, port, timeout=10.0):
        self.port, self.timeout, self.connection = port, timeout, None

    def get(self, path):
        """(status, headers with lower-case names, body bytes)."""
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                self.connection.request("GET", path)
                r = self.connection.getresponse()
                return r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise

    def close(self):
        if self.connection:
            self.connection.close()
