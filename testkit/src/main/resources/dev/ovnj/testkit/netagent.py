# The testkit chassis's traffic agent, run inside a host's network namespace (python3, standard
# library only). One of three modes, each printing one line per event on stdout:
#   serve NAME PORT                       TCP and UDP on [::]:PORT (IPv4 too), answering NAME
#   request PROTO ADDR PORT TIMEOUT_MS    one request: "ok NAME MS", "refused MS", "timeout MS", "error WHY MS"
#   probe PROTO ADDR PORT EVERY_MS TIMEOUT_MS
#                                         a request every EVERY_MS (not waiting for the previous
#                                         one) until stdin closes: "begin", then
#                                         "SENT_MS <result line>" each, then "end"
import asyncio
import socket
import sys
import time


def serve(name, port):
    answer = (name + "\n").encode()

    class Udp(asyncio.DatagramProtocol):
        def connection_made(self, transport):
            self.transport = transport

        def datagram_received(self, data, addr):
            self.transport.sendto(answer, addr)

    async def tcp(reader, writer):
        try:
            await asyncio.wait_for(reader.readline(), 5)
            writer.write(answer)
            await writer.drain()
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            writer.close()

    def dual_stack(kind):
        s = socket.socket(socket.AF_INET6, kind)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        s.bind(("::", port))
        return s

    async def main():
        loop = asyncio.get_running_loop()
        server = await asyncio.start_server(tcp, sock=dual_stack(socket.SOCK_STREAM), backlog=512)
        await loop.create_datagram_endpoint(Udp, sock=dual_stack(socket.SOCK_DGRAM))
        print("listening", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


async def request(proto, addr, port, timeout):
    family = socket.AF_INET6 if ":" in addr else socket.AF_INET
    start = time.monotonic()
    ms = lambda: int((time.monotonic() - start) * 1000)
    loop = asyncio.get_running_loop()
    s = socket.socket(family, socket.SOCK_STREAM if proto == "tcp" else socket.SOCK_DGRAM)
    s.setblocking(False)
    try:
        async def exchange():
            await loop.sock_connect(s, (addr, port))
            await loop.sock_sendall(s, b"hello\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = await loop.sock_recv(s, 512)
                if not chunk:
                    break
                data += chunk
            return data.decode().strip()
        name = await asyncio.wait_for(exchange(), timeout)
        return "ok %s %d" % (name or "-", ms()) if name else "error empty-answer %d" % ms()
    except ConnectionRefusedError:
        return "refused %d" % ms()
    except asyncio.TimeoutError:
        return "timeout %d" % ms()
    except OSError as e:
        return "error %s %d" % ((e.strerror or type(e).__name__).replace(" ", "-"), ms())
    finally:
        s.close()


async def probe(proto, addr, port, every, timeout):
    loop = asyncio.get_running_loop()
    stdin_closed = loop.create_future()

    def watch_stdin():
        sys.stdin.read()
        loop.call_soon_threadsafe(stdin_closed.set_result, True)

    loop.run_in_executor(None, watch_stdin)
    origin = time.monotonic()
    print("begin", flush=True)
    pending = set()

    async def one():
        sent = int((time.monotonic() - origin) * 1000)
        result = await request(proto, addr, port, timeout)
        print(sent, result, flush=True)

    next_at = time.monotonic()
    while not stdin_closed.done():
        t = asyncio.ensure_future(one())
        pending.add(t)
        t.add_done_callback(pending.discard)
        next_at += every
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
    if pending:
        await asyncio.wait(pending)
    print("end", flush=True)


mode = sys.argv[1]
if mode == "serve":
    serve(sys.argv[2], int(sys.argv[3]))
elif mode == "request":
    print(asyncio.run(request(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]) / 1000)), flush=True)
elif mode == "probe":
    asyncio.run(probe(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]) / 1000, int(sys.argv[6]) / 1000))
else:
    sys.exit("unknown mode " + mode)
