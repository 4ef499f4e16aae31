package dev.ovnj.testkit.junit;

import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.TestkitException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an injected server listens and keeps its files: the port or port range and the base
 * directory of {@link ServerConfig} and {@link OvsdbTest}, the parameter's taking precedence.
 */
final class ServerPlacement {
    private static final Pattern RANGE = Pattern.compile("\\s*(\\d+)\\s*(?:-\\s*(\\d+)\\s*)?");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]+)}");
    /** Start attempts in a range before giving up: each failed one is another process taking the port first. */
    private static final int ATTEMPTS = 5;

    private final List<Integer> ports;
    private final Optional<Path> baseDirectory;

    private ServerPlacement(List<Integer> ports, Optional<Path> baseDirectory) {
        this.ports = ports;
        this.baseDirectory = baseDirectory;
    }

    /**
     * The placement a parameter asks for.
     *
     * @param config the parameter's annotation, or null
     * @param test the class's annotation, or null
     * @param lookup system property, else environment variable, by name (null when unset)
     * @return the placement; without any setting, a free port and a temporary directory
     */
    static ServerPlacement of(ServerConfig config, OvsdbTest test, UnaryOperator<String> lookup) {
        List<Integer> ports;
        if (config != null && config.port() != 0) {
            ports = List.of(checkPort(config.port(), "@ServerConfig(port = " + config.port() + ")"));
        } else if (test != null && !test.ports().isBlank()) {
            ports = range(test.ports());
        } else {
            ports = List.of();
        }
        String dir = config != null && !config.directory().isBlank() ? config.directory()
                : test != null && !test.directory().isBlank() ? test.directory() : "";
        return new ServerPlacement(ports, dir.isBlank() ? Optional.empty() : Optional.of(Path.of(expand(dir, lookup))));
    }

    /** {@code "16640"} or {@code "16640-16659"}, inclusive. */
    static List<Integer> range(String text) {
        Matcher m = RANGE.matcher(text);
        String where = "@OvsdbTest(ports = \"" + text + "\")";
        if (!m.matches()) {
            throw new TestkitException(where + ": expected a port such as \"16640\" or a range such as \"16640-16659\"");
        }
        int first = checkPort(Integer.parseInt(m.group(1)), where);
        int last = m.group(2) == null ? first : checkPort(Integer.parseInt(m.group(2)), where);
        if (last < first) {
            throw new TestkitException(where + ": the range ends before it starts");
        }
        List<Integer> ports = new ArrayList<>(last - first + 1);
        for (int p = first; p <= last; p++) {
            ports.add(p);
        }
        return List.copyOf(ports);
    }

    private static int checkPort(int port, String where) {
        if (port < 1 || port > 65535) {
            throw new TestkitException(where + ": " + port + " is not a TCP port (1 to 65535)");
        }
        return port;
    }

    /** Replaces each {@code ${NAME}} by its value; an unset one fails, naming it. */
    static String expand(String text, UnaryOperator<String> lookup) {
        Matcher m = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = lookup.apply(m.group(1));
            if (value == null) {
                throw new TestkitException("directory \"" + text + "\": ${" + m.group(1)
                        + "} is neither a system property nor an environment variable");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    /**
     * Starts a server placed here: on the pinned port, or on the first port of the range that
     * nothing listens on (the next one when another process takes it before the server does),
     * with its files in a new subdirectory of the base directory.
     *
     * @param builder the server's other settings
     * @param name the test's name, prefix of the subdirectory
     * @return the running server
     */
    OvsdbServer start(OvsdbServer.Builder builder, String name) {
        if (ports.size() <= 1) {
            return attempt(builder, name, ports.isEmpty() ? 0 : ports.get(0));
        }
        TestkitException last = null;
        int attempts = 0;
        for (int port : ports) {
            if (attempts == ATTEMPTS) {
                break;
            }
            if (!free(port)) {
                continue;
            }
            attempts++;
            try {
                return attempt(builder, name, port);
            } catch (TestkitException e) {
                last = e;
            }
        }
        String range = ports.get(0) + "-" + ports.get(ports.size() - 1);
        throw last != null ? new TestkitException("no server started on a port of " + range + " in " + attempts + " attempts", last)
                : new TestkitException("every port of " + range + " is taken");
    }

    /** One start, in a directory of its own: a failed attempt leaves its database file behind. */
    private OvsdbServer attempt(OvsdbServer.Builder builder, String name, int port) {
        baseDirectory.ifPresent(base -> builder.directory(subdirectory(base, name)));
        if (port > 0) {
            builder.port(port);
        }
        return builder.start();
    }

    private static Path subdirectory(Path base, String name) {
        try {
            return Files.createTempDirectory(Files.createDirectories(base), name.replaceAll("[^A-Za-z0-9._-]", "_") + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a server directory under " + base, e);
        }
    }

    private static boolean free(int port) {
        try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return probe.isBound();
        } catch (IOException e) {
            return false;
        }
    }
}
