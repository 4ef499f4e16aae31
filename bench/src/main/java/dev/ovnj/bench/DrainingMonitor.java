package dev.ovnj.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.schema.DatabaseSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cheapest client that keeps a monitor: a raw socket that sends the {@code monitor_cond_since}
 * request a cache-keeping ovnj client sends (same tables, columns and method) and then only counts
 * the bytes of the updates, parsing nothing. What {@code ovsdb-server} spends while it is
 * connected is what the server spends on any cache-keeping client of that monitor: the
 * "monitor floor" of bulk-create.
 *
 * <p>It also times the reply (first and last byte), which is the server's share of a sync: what
 * a client adds on top of it is its parsing and its cache.
 *
 * <p>It sends an {@code echo} request every second so that the server's inactivity probe (5 s on
 * a passive remote) never finds the connection idle; the replies are drained with the updates.
 */
final class DrainingMonitor implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ZERO_TXN = "00000000-0000-0000-0000-000000000000";

    private final Socket socket;
    private final AtomicLong bytes = new AtomicLong();
    private final CountDownLatch replied = new CountDownLatch(1);
    private final Thread reader;
    private final Thread prober;
    private volatile IOException failure;
    private long sentNanos;
    private volatile long firstByteNanos;
    private volatile long replyNanos;
    private volatile long replyBytes;

    private DrainingMonitor(Socket socket) {
        this.socket = socket;
        this.reader = new Thread(this::drain, "monitor-floor-drain");
        this.prober = new Thread(this::probe, "monitor-floor-echo");
        reader.setDaemon(true);
        prober.setDaemon(true);
    }

    /**
     * Connects, sends the monitor request and waits for its reply.
     *
     * @param port the server's TCP port on 127.0.0.1
     * @param schema the server's schema (resolves the request as ovnj's client does)
     * @param request the tables and columns to monitor
     * @return the open monitor
     */
    static DrainingMonitor open(int port, DatabaseSchema schema, MonitorRequest request) {
        try {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setTcpNoDelay(true);
            DrainingMonitor m = new DrainingMonitor(socket);
            ObjectNode call = JSON.createObjectNode();
            call.put("method", "monitor_cond_since");
            ArrayNode params = call.putArray("params");
            params.add(schema.name());
            params.add("monitor-floor");
            params.add(request.toJson(schema, true));
            params.add(ZERO_TXN);
            call.put("id", "monitor-floor");
            m.sentNanos = System.nanoTime();
            m.send(JSON.writeValueAsString(call));
            m.reader.start();
            if (!m.replied.await(60, TimeUnit.SECONDS)) {
                m.close();
                throw new IllegalStateException("no monitor reply within 60 s" + (m.failure == null ? "" : ": " + m.failure));
            }
            m.prober.start();
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening the monitor", e);
        }
    }

    /** Seconds from sending the monitor request to the first byte of its reply. */
    double firstByteSeconds() {
        return (firstByteNanos - sentNanos) / 1e9;
    }

    /** Seconds from sending the monitor request to the last byte of its reply. */
    double replySeconds() {
        return (replyNanos - sentNanos) / 1e9;
    }

    /** Bytes of the monitor reply (the initial rows). */
    long replyBytes() {
        return replyBytes;
    }

    /** Bytes received so far. */
    long bytes() {
        return bytes.get();
    }

    /**
     * Waits (at most 60 s) until nothing has arrived for 300 ms apart from the echo replies, so
     * that the server has sent every update of the writes; fails if the connection broke.
     */
    void awaitDrained() {
        Proc.awaitSteady(bytes::get, 300, 60);
        if (failure != null) {
            throw new IllegalStateException("the monitor connection failed", failure);
        }
    }

    private synchronized void send(String message) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(message.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private void drain() {
        // Scans the first JSON value the server sends (the reply: nothing else is sent before it)
        // for its end, tracking nesting and strings only; nothing after it is looked at.
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        byte[] buf = new byte[1 << 16];
        try {
            InputStream in = socket.getInputStream();
            for (int r; (r = in.read(buf)) >= 0; ) {
                if (bytes.getAndAdd(r) == 0) {
                    firstByteNanos = System.nanoTime();
                }
                for (int i = 0; i < r && replied.getCount() > 0; i++) {
                    byte b = buf[i];
                    if (inString) {
                        if (escaped) {
                            escaped = false;
                        } else if (b == '\\') {
                            escaped = true;
                        } else if (b == '"') {
                            inString = false;
                        }
                    } else if (b == '"') {
                        inString = true;
                    } else if (b == '{' || b == '[') {
                        depth++;
                    } else if ((b == '}' || b == ']') && --depth == 0) {
                        replyNanos = System.nanoTime();
                        replyBytes = bytes.get() - r + i + 1;
                        replied.countDown();
                    }
                }
            }
        } catch (IOException e) {
            if (!socket.isClosed()) {
                failure = e;
            }
        }
    }

    private void probe() {
        // Each echo's reply is ~40 bytes; awaitDrained's 300 ms quiet period is shorter than this
        // interval, so an echo reply alone does not keep it waiting.
        try {
            for (long n = 0; !socket.isClosed(); n++) {
                Thread.sleep(1000);
                send("{\"method\":\"echo\",\"params\":[],\"id\":\"echo-" + n + "\"}");
            }
        } catch (InterruptedException | IOException e) {
            // closed: nothing to keep alive
        }
    }

    @Override
    public void close() {
        prober.interrupt();
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
