package dev.ovnj.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Network namespaces of the data-plane fixture ({@link Chassis}), made and removed with {@code ip netns}.
 * Every name starts with {@value #PREFIX}, then the owning JVM's pid and a sequence number, so
 * two test JVMs never collide and a JVM can tell its own leftovers (and those of a dead JVM) from
 * anyone else's.
 */
final class Netns {
    /** The prefix of every namespace the testkit makes. */
    static final String PREFIX = "ovnj-";
    private static final Pattern OWNED = Pattern.compile("^" + PREFIX + "(\\d+)-\\d+(-.*)?$");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private Netns() {
    }

    /**
     * Creates a namespace with its loopback up.
     *
     * @param name the namespace
     */
    static void add(String name) {
        ip("netns", "add", name);
        ip("-n", name, "link", "set", "lo", "up");
    }

    /**
     * Kills every process left in the namespace (only ever the testkit's own: nothing else runs in
     * it) and removes it; its veth ends go with it.
     *
     * @param name the namespace
     */
    static void delete(String name) {
        if (!list().contains(name)) {
            return;
        }
        Command.Result pids = Command.of("ip", "netns", "pids", name).timeout(TIMEOUT).run();
        for (String pid : pids.stdout().split("\\s+")) {
            if (!pid.isBlank()) {
                Command.of("kill", "-9", pid.trim()).timeout(TIMEOUT).run();
            }
        }
        ip("netns", "del", name);
    }

    /**
     * The names of all namespaces on the machine.
     *
     * @return the names
     */
    static List<String> list() {
        List<String> names = new ArrayList<>();
        for (String line : Command.of("ip", "netns", "list").timeout(TIMEOUT).check().split("\n")) {
            String name = line.trim().split("\\s+")[0];
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * Removes testkit namespaces whose JVM is gone (it was killed before it could clean up).
     * Namespaces of running JVMs, this one's included, are left alone.
     */
    static void reapOrphans() {
        for (String name : list()) {
            Matcher m = OWNED.matcher(name);
            if (m.matches() && !Files.exists(Path.of("/proc", m.group(1)))) {
                delete(name);
            }
        }
    }

    /**
     * The command line that runs {@code argv} inside the namespace.
     *
     * @param name the namespace
     * @param argv the command line (its program already resolved to the release's)
     * @return {@code ip netns exec NAME argv...}
     */
    static List<String> exec(String name, List<String> argv) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(argv);
        return full;
    }

    /**
     * Runs a command inside the namespace and fails unless it exits 0.
     *
     * @param name the namespace
     * @param argv program and arguments
     * @return stdout
     */
    static String run(String name, String... argv) {
        return Command.of(exec(name, List.of(argv))).timeout(TIMEOUT).check();
    }

    static void ip(String... args) {
        List<String> argv = new ArrayList<>(List.of("ip"));
        argv.addAll(List.of(args));
        Command.of(argv).timeout(TIMEOUT).check();
    }
}
