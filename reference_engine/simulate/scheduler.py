"""Whether an address given as ``--scheduler`` is a Dask scheduler, asked within a deadline.

Dask's client trusts what answers: a listener that accepts and says nothing
holds it past its own connect timeout, and one that answers with anything
else makes it read the first eight bytes as the length of a message, which
may be exabytes. Before Dask is given a ``tcp://`` address (or a bare
``HOST:PORT``), :func:`check` connects to it itself, within
:data:`DEADLINE` seconds for the connection and again for the first message,
and reads only the frame a scheduler sends first (its handshake): its length
must be that of a handshake, and its frames must add up. Anything else is a
:class:`NotAScheduler` whose message says what came back. Other schemes
(``tls://``, ``inproc://``) are left to Dask.
"""

from __future__ import annotations

import socket
import struct
import time

from ..errors import MachineProblem

#: Seconds to connect, and again to read the first message.
DEADLINE = 10.0

#: The largest first message a scheduler's handshake is taken to be (bytes).
LARGEST_HANDSHAKE = 1 << 20

#: The most frames a handshake is taken to have.
MOST_FRAMES = 64


class NotAScheduler(MachineProblem):
    """The address is unreachable, silent, or answers as no Dask scheduler does."""


def check(address: str, deadline: float = DEADLINE) -> None:
    """Raise :class:`NotAScheduler` unless ``address`` answers as a Dask scheduler does."""
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return
    host, _, port_text = rest.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise NotAScheduler(f"{address!r} is not HOST:PORT or tcp://HOST:PORT")
    try:
        connection = socket.create_connection((host, int(port_text)), timeout=deadline)
    except OSError as error:
        raise NotAScheduler(f"cannot connect to {address}: {error.strerror or error}") from None
    with connection:
        _handshake(connection, address, deadline)


def _handshake(connection: socket.socket, address: str, deadline: float) -> None:
    ends = time.monotonic() + deadline
    head = _exactly(connection, 8, ends, address, deadline)
    (size,) = struct.unpack("<Q", head)
    if not 16 <= size <= LARGEST_HANDSHAKE:
        raise NotAScheduler(
            f"{address} does not answer as a Dask scheduler does (its first message claims "
            f"{size} bytes; it began {head!r})"
        )
    body = _exactly(connection, size, ends, address, deadline)
    (frames,) = struct.unpack_from("<Q", body)
    if not 1 <= frames <= MOST_FRAMES or 8 * (frames + 1) > size:
        raise NotAScheduler(f"{address} does not answer as a Dask scheduler does")
    lengths = struct.unpack_from(f"<{frames}Q", body, 8)
    if 8 * (frames + 1) + sum(lengths) != size:
        raise NotAScheduler(f"{address} does not answer as a Dask scheduler does")


def _exactly(
    connection: socket.socket, count: int, ends: float, address: str, deadline: float
) -> bytes:
    """``count`` bytes from ``connection`` before ``ends``; NotAScheduler otherwise."""
    data = bytearray()
    while len(data) < count:
        left = ends - time.monotonic()
        if left <= 0:
            raise NotAScheduler(
                f"{address} accepted the connection but sent no Dask handshake within "
                f"{deadline:g} s"
            )
        connection.settimeout(left)
        try:
            chunk = connection.recv(min(65536, count - len(data)))
        except TimeoutError:
            continue
        except OSError as error:
            raise NotAScheduler(f"{address}: {error.strerror or error}") from None
        if not chunk:
            raise NotAScheduler(f"{address} closed the connection before a Dask handshake")
        data += chunk
    return bytes(data)
