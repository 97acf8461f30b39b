"""The sockets' ``dispatch`` leaves out channels' per-message connection check
(games/socket_base.py says why).  Two rules make that safe; these tests pin them."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

from channels.consumer import AsyncConsumer

from games.socket_base import SocketConsumer

ROOT = Path(__file__).resolve().parents[2]
# Every module with socket consumers, or with code they run on the event loop.
CONSUMER_MODULES = [
    "table/consumers.py",
    "table/lobby_socket.py",
    "games/socket_base.py",
    "friends/consumers.py",
    "durak_site/routing.py",
    "accounts/language.py",
]
# Django's async ORM: these run on the shared database thread, whose old
# connections only channels' dispatch would have closed.
ASYNC_ORM = {
    "aaggregate",
    "abulk_create",
    "abulk_update",
    "acontains",
    "acount",
    "acreate",
    "adelete",
    "aearliest",
    "aexists",
    "aexplain",
    "afirst",
    "aget",
    "aget_or_create",
    "ain_bulk",
    "aiterator",
    "alast",
    "alatest",
    "arefresh_from_db",
    "asave",
    "aupdate",
    "aupdate_or_create",
}


def body(function) -> list[ast.stmt]:
    """The statements of ``function``, less its docstring."""
    statements = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0].body
    if isinstance(statements[0], ast.Expr) and isinstance(statements[0].value, ast.Constant):
        statements = statements[1:]
    return statements


def is_connection_check(statement: ast.stmt) -> bool:
    return ast.unparse(statement) == "await aclose_old_connections()"


class LessConnectionCheck(ast.NodeTransformer):
    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        for field in ("body", "orelse"):
            statements = getattr(node, field, None)
            if isinstance(statements, list):
                setattr(node, field, [s for s in statements if not is_connection_check(s)])
        return node


def test_the_override_is_channels_dispatch_less_the_connection_check():
    stock = body(AsyncConsumer.dispatch)
    assert any(is_connection_check(n) for s in stock for n in ast.walk(s)), (
        "channels' dispatch changed: review SocketConsumer.dispatch"
    )
    stock = [LessConnectionCheck().visit(statement) for statement in stock]
    assert [ast.dump(s) for s in body(SocketConsumer.dispatch)] == [ast.dump(s) for s in stock]


def test_no_consumer_makes_an_async_orm_call():
    found = []
    for name in CONSUMER_MODULES:
        tree = ast.parse((ROOT / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.AsyncFor):
                found.append(f"{name}:{node.lineno} async for")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ASYNC_ORM
            ):
                found.append(f"{name}:{node.lineno} {node.func.attr}")
    assert found == []
