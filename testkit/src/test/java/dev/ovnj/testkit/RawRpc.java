package dev.ovnj.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A deliberately dumb JSON-RPC probe over a plain socket, so that testkit tests do not depend on
 * the client under development: it sends {@code echo} and reports whether the reply came in time.
 */
public final class RawRpc implements AutoCloseable {
    private final Socket socket;
    private int nextId;

    public RawRpc(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
    }

    /** Sends an echo and returns true when its reply arrives within {@code timeoutMs}. */
    public boolean echo(int timeoutMs) throws IOException {
        int id = ++nextId;
        String marker = "probe-" + id;
        socket.getOutputStream().write(("{\"id\":" + id + ",\"method\":\"echo\",\"params\":[\"" + marker + "\"]}")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return awaitText(marker, timeoutMs);
    }

    /** Waits for {@code text} to appear in what the server sends. */
    public boolean awaitText(String text, int timeoutMs) throws IOException {
        socket.setSoTimeout(timeoutMs);
        InputStream in = socket.getInputStream();
        StringBuilder got = new StringBuilder();
        byte[] buf = new byte[4096];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                got.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                if (got.indexOf(text) >= 0) {
                    return true;
                }
            }
            throw new IOException("connection closed by peer");
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
