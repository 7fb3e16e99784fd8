"""``simulate --scheduler`` given something that is not a Dask scheduler: one line, in time.

The listeners here are the test's own sockets: one that accepts and says
nothing, one that answers as a web server does, one that closes at once, and
an address nothing listens on. A real scheduler passes the same check.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from fitting import message_count

from reference_engine.simulate.scheduler import NotAScheduler, check

from .harness import run_matador


@pytest.fixture
def listener() -> Iterator[Callable[[Callable[[socket.socket], None]], str]]:
    """A local listener that treats every connection with the given function."""
    sockets: list[socket.socket] = []

    def listen(treat: Callable[[socket.socket], None]) -> str:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        sockets.append(server)

        def accept() -> None:
            while True:
                try:
                    connection, _ = server.accept()
                except OSError:
                    return
                sockets.append(connection)
                threading.Thread(target=treat, args=(connection,), daemon=True).start()

        threading.Thread(target=accept, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield listen
    for opened in sockets:
        opened.close()


def _silent(connection: socket.socket) -> None:
    time.sleep(30)


def _web_server(connection: socket.socket) -> None:
    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    time.sleep(30)


def _closes(connection: socket.socket) -> None:
    connection.close()


@pytest.mark.parametrize(
    ("treat", "says"),
    [
        (_silent, "sent no Dask handshake within 1 s"),
        (_web_server, "does not answer as a Dask scheduler does"),
        (_closes, "closed the connection before a Dask handshake"),
    ],
)
def test_what_is_no_scheduler_is_told_within_the_deadline(
    listener: Callable[[Callable[[socket.socket], None]], str],
    treat: Callable[[socket.socket], None],
    says: str,
) -> None:
    address = listener(treat)
    started = time.monotonic()
    with pytest.raises(NotAScheduler, match=says):
        check(address, deadline=1)
    assert time.monotonic() - started < 5


def test_an_address_nothing_listens_on_is_told() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(NotAScheduler, match="cannot connect"):
        check(f"127.0.0.1:{port}", deadline=1)


@pytest.mark.parametrize("address", ["nonsense", "tcp://host:port", "tcp://host:99999"])
def test_an_address_of_the_wrong_form_is_told(address: str) -> None:
    with pytest.raises(NotAScheduler, match="is not HOST:PORT"):
        check(address, deadline=1)


@pytest.mark.slow
def test_a_real_scheduler_passes() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, processes=False, protocol="tcp://", dashboard_address=None
    ) as cluster:
        check(cluster.scheduler_address, deadline=5)


@pytest.mark.slow
def test_simulate_told_of_a_web_server_ends_in_one_line(
    listener: Callable[[Callable[[socket.socket], None]], str],
) -> None:
    pytest.importorskip("distributed")
    address = listener(_web_server)
    done = run_matador("simulate", "german", "--hands", "10", "--scheduler", address)
    assert done.status == 1, done.output
    assert message_count(done.stderr) == 1 and not done.stdout
    assert "does not answer as a Dask scheduler does" in done.said
