package dev.ovnj.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A small server in a {@link Host} answering every TCP connection and every UDP datagram on one
 * port (IPv4 and IPv6) with the host's name, so a client sees which backend a load balancer chose.
 * {@link #stop()} kills it (a crashed backend, for health checks); {@link #start()} brings it back.
 * Made by {@link Host#serve(int)}.
 */
public final class EchoServer implements AutoCloseable {
    private final Host host;
    private final int port;
    private final List<String> argv;
    private Process process;

    EchoServer(Host host, int port, List<String> argv) {
        this.host = host;
        this.port = port;
        this.argv = List.copyOf(argv);
    }

    /**
     * Starts the server (again) and waits until it listens.
     *
     * @return this server
     */
    public synchronized EchoServer start() {
        if (isRunning()) {
            return this;
        }
        Process p;
        try {
            p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new TestkitException("cannot start the echo server in " + host.name() + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
            try {
                BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                StringBuilder out = new StringBuilder();
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.equals("listening")) {
                        return line;
                    }
                    out.append(line).append('\n');
                }
                return out.toString();
            } catch (IOException e) {
                return e.toString();
            }
        });
        try {
            String line = firstLine.get(20, TimeUnit.SECONDS);
            if (!line.equals("listening")) {
                p.destroyForcibly();
                throw new TestkitException("the echo server in " + host.name() + " on port " + port + " did not start:\n" + line);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new TestkitException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            throw new TestkitException("the echo server in " + host.name() + " on port " + port + " did not listen within 20 s", e);
        }
        process = p;
        return this;
    }

    /** Kills the server (SIGKILL), as a crashed backend; its port then refuses connections. */
    public synchronized void stop() {
        Process p = process;
        process = null;
        if (p != null) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Whether the server runs.
     *
     * @return true while it runs
     */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * The port it listens on, TCP and UDP.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "EchoServer[" + host.name() + ":" + port + (isRunning() ? "" : ", stopped") + "]";
    }
}
