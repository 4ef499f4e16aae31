package dev.ovnj.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Finds loopback TCP ports that nothing listens on right now. */
final class FreePorts {
    private FreePorts() {
    }

    static int next() {
        return distinct(1)[0];
    }

    /**
     * {@code n} different free ports. Each probe socket stays open until all are picked: closed one
     * by one, the kernel handed the same port out again, and a 3-member cluster got two members on
     * one raft address ({@code ovsdb-tool join-cluster}: "remote addresses cannot be the same as
     * the local address").
     */
    static int[] distinct(int n) {
        List<ServerSocket> open = new ArrayList<>(n);
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                open.add(s);
                s.setReuseAddress(true);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        } finally {
            for (ServerSocket s : open) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // A probe socket that fails to close leaves its port taken; the others are free.
                }
            }
        }
    }
}
