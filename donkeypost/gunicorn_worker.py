"""gunicorn's gevent worker, answering what it refuses itself in the API's error shape.

gunicorn reads the request line and the headers before the application sees a request,
and refuses on its own what is beyond its limits or malformed: a request line over
`--limit-request-line` (8190 bytes: `api.observe.REQUEST_LINE`) with 414, a header over
`--limit-request-field_size` (8190 bytes) or more than `--limit-request-fields` (100)
headers with 431, malformed framing (a bad request line, header or chunk) with 400. Its
answer is an HTML page; this worker
answers the same status with the shared JSON body (`{code, status, message,
request_id}`), an `X-Request-ID`, and `Connection: close` (the connection cannot be read
further). The log line stays gunicorn's own warning.

`web_servers.web_command` names this class as gunicorn's `--worker-class`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from gunicorn import util
from gunicorn.http import errors as http_errors
from gunicorn.workers.ggevent import GeventWorker

# What gunicorn refuses, as (status, reason, code); anything else it reports is a 400.
_REFUSALS: tuple[tuple[type[BaseException], int, str, str], ...] = (
    (http_errors.LimitRequestLine, 414, "URI Too Long", "uri_too_long"),
    (http_errors.LimitRequestHeaders, 431, "Request Header Fields Too Large",
     "header_fields_too_large"),
    (http_errors.ExpectationFailed, 417, "Expectation Failed", "expectation_failed"),
    (http_errors.UnsupportedTransferCoding, 501, "Not Implemented",
     "unsupported_transfer_coding"),
    (http_errors.ForbiddenProxyRequest, 403, "Forbidden", "forbidden"),
)
# Parse errors that are not the client's: a header the application sent, a bad setting.
_NOT_CLIENTS = (http_errors.InvalidResponseHeader, http_errors.InvalidResponseHeaderName,
                http_errors.ConfigurationProblem)
_MESSAGES = {
    "uri_too_long": "the request line is longer than the server reads (8190 bytes with "
                    "the path and query)",
    "header_fields_too_large": "a header is longer than the server reads (8190 bytes), or "
                               "there are more than 100 headers",
    "bad_request": "the request is not well-formed HTTP/1.1",
}


def refusal(exc: BaseException) -> tuple[int, str, str]:
    """The status, reason phrase and machine code of what gunicorn refused."""
    for kind, status, reason, code in _REFUSALS:
        if isinstance(exc, kind):
            return status, reason, code
    return 400, "Bad Request", "bad_request"


def json_error(status: int, reason: str, code: str, detail: str) -> bytes:
    """A whole HTTP/1.1 answer (head and body) in the shared error shape."""
    request_id = os.urandom(12).hex()  # as `api.observe` makes one (not imported here:
    # the server's own process loads this class, and must not import the app before gevent)
    body = json.dumps({"code": code, "status": status,
                       "message": _MESSAGES.get(code, detail or reason),
                       "request_id": request_id}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"X-Request-ID: {request_id}\r\n\r\n")
    return head.encode("latin-1") + body


class JsonErrorsWorker(GeventWorker):  # type: ignore[misc]
    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if not isinstance(exc, http_errors.ParseException) or isinstance(exc, _NOT_CLIENTS):
            # Not the client's fault (the application's or the server's): gunicorn's own
            # handling, which logs it with its traceback.
            super().handle_error(req, client, addr, exc)
            return
        status, reason, code = refusal(exc)
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            util.write_nonblock(client, json_error(status, reason, code, str(exc)))
        except Exception:  # the client went away: nothing to answer
            self.log.debug("Failed to send error message.")

