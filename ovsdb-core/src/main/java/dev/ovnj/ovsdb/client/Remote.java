package dev.ovnj.ovsdb.client;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One OVSDB remote in the syntax OVS uses: {@code tcp:IP:PORT}, {@code ssl:IP:PORT} (IPv6 in
 * brackets, {@code tcp:[::1]:6641}), or {@code unix:PATH}. The port is required: OVS would take
 * 6640, where the Open_vSwitch database listens, while OVN's Northbound listens on 6641 and its
 * Southbound on 6642, so a silent default would reach the wrong database or nothing.
 *
 * @param kind transport
 * @param host host or IP for TCP and SSL, null for unix
 * @param port port for TCP and SSL, 0 for unix
 * @param path socket path for unix, null otherwise
 */
public record Remote(Kind kind, String host, int port, Path path) {
    /** The IANA OVSDB port, where the Open_vSwitch database listens; never assumed for a remote without a port. */
    public static final int DEFAULT_PORT = 6640;

    /** The transport of a remote. */
    public enum Kind {
        /** Plain TCP. */
        TCP,
        /** TLS over TCP. */
        SSL,
        /** A unix domain socket. */
        UNIX
    }

    /**
     * Validates the components.
     *
     * @param host host or IP for TCP and SSL, null for unix
     * @param kind transport
     * @param path socket path for unix, null otherwise
     * @param port port for TCP and SSL, 0 for unix
     */
    public Remote {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.UNIX) {
            Objects.requireNonNull(path, "path");
        } else {
            Objects.requireNonNull(host, "host");
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port out of range 1..65535: " + port);
            }
        }
    }

    /**
     * Parses one remote.
     *
     * @param text e.g. {@code tcp:127.0.0.1:6641}
     * @return the remote
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static Remote parse(String text) {
        String s = text.trim();
        int colon = s.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": expected tcp:IP:PORT, ssl:IP:PORT or unix:PATH");
        }
        String scheme = s.substring(0, colon);
        String rest = s.substring(colon + 1);
        switch (scheme) {
            case "unix":
                if (rest.isEmpty()) {
                    throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": unix: needs a socket path");
                }
                return new Remote(Kind.UNIX, null, 0, Path.of(rest));
            case "tcp":
            case "ssl":
                return hostPort(text, scheme.equals("tcp") ? Kind.TCP : Kind.SSL, rest);
            default:
                throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": unknown method \"" + scheme
                        + "\" (use tcp, ssl or unix; passive p* remotes are for servers)");
        }
    }

    /**
     * Parses a comma-separated list of remotes, as {@code --db} takes for a cluster.
     *
     * @param text e.g. {@code tcp:10.0.0.1:6641,tcp:10.0.0.2:6641}
     * @return the remotes in order
     */
    public static List<Remote> parseList(String text) {
        List<Remote> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                out.add(parse(part));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no OVSDB remote in \"" + text + "\"");
        }
        return List.copyOf(out);
    }

    private static Remote hostPort(String text, Kind kind, String rest) {
        String host;
        String portText;
        if (rest.startsWith("[")) {
            int close = rest.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": unclosed [ in IPv6 address");
            }
            host = rest.substring(1, close);
            String after = rest.substring(close + 1);
            portText = after.isEmpty() ? null : after.startsWith(":") ? after.substring(1) : "";
        } else {
            int c = rest.lastIndexOf(':');
            if (c >= 0 && rest.indexOf(':') != c) {
                throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": write IPv6 addresses in brackets, e.g. tcp:[::1]:6641");
            }
            host = c < 0 ? rest : rest.substring(0, c);
            portText = c < 0 ? null : rest.substring(c + 1);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": missing host");
        }
        if (portText == null) {
            throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": no port; OVN's Northbound listens on 6641"
                    + " and its Southbound on 6642 (Open_vSwitch on " + DEFAULT_PORT + "), e.g. " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + ":" + rest + ":6641");
        }
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": port \"" + portText + "\" is not a number");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("invalid OVSDB remote \"" + text + "\": port " + port + " out of range 1..65535");
        }
        return new Remote(kind, host, port, null);
    }

    /**
     * The socket address to connect to.
     *
     * @return an unresolved-free inet address, or a domain socket address for unix
     */
    public SocketAddress socketAddress() {
        if (kind == Kind.UNIX) {
            return new io.netty.channel.unix.DomainSocketAddress(path.toString());
        }
        return new InetSocketAddress(host, port);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case UNIX -> "unix:" + path;
            case TCP, SSL -> kind.name().toLowerCase() + ":" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        };
    }
}
