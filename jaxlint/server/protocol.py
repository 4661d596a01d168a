"""JSON-RPC answers that pygls leaves out: every request gets a response.

pygls drops a request whose params do not fit the method's type (it logs the error
while decoding the message and sends nothing), and every request that comes after
``shutdown``: the client then waits forever. The LSP specification asks for an
error response instead: ``InvalidParams`` (-32602) for the first, ``InvalidRequest``
(-32600) for the second. (``exit`` without ``shutdown`` ends the process with exit
code 1, after it with 0: ``app.serve``.)
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest


class _Answered:
    """Stands for a request already answered with an error while it was decoded."""

    jsonrpc = "2.0"


class AnsweringProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not _is_request(data):
                raise  # a notification has no one to answer: pygls logs it
            method = data.get("method")
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            detail = " ".join(str(cause).split()) or type(cause).__name__
            error = JsonRpcInvalidParams(f"Invalid params for {method!r}: {detail}")
            self._send_response(_request_id(data), None, error.to_response_error())
            return _Answered()

    def handle_message(self, message):
        if isinstance(message, _Answered):
            return
        if self._shutdown and getattr(message, "method", "") != lsp.EXIT:
            if isinstance(message, RPCRequest) and getattr(message, "id", None) is not None:
                error = JsonRpcInvalidRequest(
                    f"The server is shut down: {message.method!r} not handled (send 'exit')"
                )
                self._send_response(message.id, None, error.to_response_error())
            return
        super().handle_message(message)


def _is_request(data: Any) -> bool:
    return isinstance(data, dict) and "jsonrpc" in data and "method" in data and "id" in data


def _request_id(data: dict[str, Any]) -> int | str | None:
    """The request's id as JSON-RPC allows it (a number or a string), else null."""
    found = data.get("id")
    if isinstance(found, bool) or not isinstance(found, (int, str)):
        return None
    return found
