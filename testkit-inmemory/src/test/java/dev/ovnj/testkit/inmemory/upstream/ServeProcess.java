package dev.ovnj.testkit.inmemory.upstream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code ovnj serve} as a separate process, for running the upstream cases against the command. */
final class ServeProcess implements CaseRunner.Target {
    private final Path jar;
    private final boolean history;

    ServeProcess(Path jar, boolean history) {
        this.jar = jar;
        this.history = history;
    }

    @Override
    public String name() {
        return history ? "ovnj serve" : "ovnj serve --no-history";
    }

    @Override
    public CaseRunner.Server start(Path schema) {
        int port = freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "serve", "--remote", "ptcp:" + port + ":127.0.0.1", "--schema", schema.toString()));
        if (!history) {
            cmd.add("--no-history");
        }
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            awaitListening(p, port);
            return new CaseRunner.Server() {
                @Override
                public String remote() {
                    return "tcp:127.0.0.1:" + port;
                }

                @Override
                public void close() {
                    p.destroy();
                    try {
                        if (!p.waitFor(10, TimeUnit.SECONDS)) {
                            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitListening(Process p, int port) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("ovnj serve exited with " + p.exitValue());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("ovnj serve did not listen on " + port + " within 30 s");
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
