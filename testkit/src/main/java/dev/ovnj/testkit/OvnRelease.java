package dev.ovnj.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The OVS/OVN release the testkit runs: the machine's own binaries ({@link #host()}), or another
 * release's from a root filesystem that {@code scripts/ovn-release-root.sh SUITE} built, named by
 * the system property {@value #ROOT_PROPERTY} or the environment variable {@value #ROOT_ENV}.
 *
 * <p>A release root's programs run through the root's own dynamic loader and libraries
 * ({@code ROOT/lib64/ld-linux-x86-64.so.2 --library-path ROOT/usr/lib/x86_64-linux-gnu
 * ROOT/usr/sbin/ovsdb-server ...}) rather than under {@code chroot}: every path a test passes (database
 * files, sockets, certificates, temporary directories) then means what it means on the host, no
 * root privilege is needed to run the tests, and the daemons listen on the host's loopback as the
 * host's own would. Servers the testkit creates use that release's own {@code ovn-nb.ovsschema} and
 * {@code ovn-sb.ovsschema} ({@link Schemas#ovnNorthbound(Path)}).
 */
public final class OvnRelease {
    /** The system property naming a release root; it wins over {@value #ROOT_ENV}. */
    public static final String ROOT_PROPERTY = "ovnj.release.root";
    /** The environment variable naming a release root. */
    public static final String ROOT_ENV = "OVNJ_RELEASE_ROOT";

    private static final List<String> PROGRAM_DIRS = List.of("usr/sbin", "usr/bin", "sbin", "bin");
    /** The programs a release root provides; any other command runs from the host. */
    private static final Set<String> RELEASE_PROGRAMS = Set.of("ovsdb-server", "ovsdb-tool", "ovsdb-client", "ovs-appctl",
            "ovn-appctl", "ovn-nbctl", "ovn-sbctl", "ovn-northd", "ovn-trace",
            "ovs-vswitchd", "ovs-vsctl", "ovs-ofctl", "ovn-controller");

    private final Optional<Path> root;
    private final List<String> loader;

    private OvnRelease(Optional<Path> root, List<String> loader) {
        this.root = root;
        this.loader = List.copyOf(loader);
    }

    /**
     * The machine's own OVS/OVN, found on {@code PATH}.
     *
     * @return the host release
     */
    public static OvnRelease host() {
        return new OvnRelease(Optional.empty(), List.of());
    }

    /**
     * The release of a root filesystem.
     *
     * @param root a root built by {@code scripts/ovn-release-root.sh}
     * @return the release
     * @throws TestkitException when the root has no dynamic loader or no {@code ovsdb-server}
     */
    public static OvnRelease ofRoot(Path root) {
        Path r = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(r)) {
            throw new TestkitException("release root " + r + " is not a directory (scripts/ovn-release-root.sh SUITE builds one)");
        }
        Path libDir;
        Path ld;
        try (Stream<Path> dirs = Files.list(r.resolve("usr/lib"))) {
            libDir = dirs.filter(d -> d.getFileName().toString().endsWith("-linux-gnu") && Files.isDirectory(d)).findFirst()
                    .orElseThrow(() -> new TestkitException("release root " + r + " has no usr/lib/*-linux-gnu library directory"));
        } catch (IOException e) {
            throw new TestkitException("release root " + r + " has no usr/lib: " + e.getMessage(), e);
        }
        try (Stream<Path> files = Files.list(libDir)) {
            ld = files.filter(f -> f.getFileName().toString().startsWith("ld-linux")).findFirst()
                    .orElseThrow(() -> new TestkitException("release root " + r + " has no dynamic loader in " + libDir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OvnRelease release = new OvnRelease(Optional.of(r), List.of(ld.toString(), "--library-path", libDir.toString()));
        release.program("ovsdb-server");
        return release;
    }

    /**
     * The release this JVM's tests run: {@value #ROOT_PROPERTY}, else {@value #ROOT_ENV}, else the host.
     *
     * @return the current release
     */
    public static OvnRelease current() {
        String p = System.getProperty(ROOT_PROPERTY);
        if (p == null || p.isBlank()) {
            p = System.getenv(ROOT_ENV);
        }
        return p == null || p.isBlank() ? host() : ofRoot(Path.of(p));
    }

    /**
     * The release root, empty for the host.
     *
     * @return the root
     */
    public Optional<Path> root() {
        return root;
    }

    /**
     * The command line that runs one of the release's programs.
     *
     * @param program e.g. {@code ovsdb-server} or {@code ovn-nbctl}
     * @param args its arguments
     * @return the argv to execute
     * @throws TestkitException when the release root has no such program
     */
    public List<String> command(String program, List<String> args) {
        List<String> argv = new ArrayList<>(loader);
        argv.add(program(program));
        argv.addAll(args);
        return argv;
    }

    /**
     * The command line that runs one of the release's programs.
     *
     * @param program e.g. {@code ovsdb-server}
     * @param args its arguments
     * @return the argv to execute
     */
    public List<String> command(String program, String... args) {
        return command(program, List.of(args));
    }

    /**
     * Rewrites a command line so that an OVS/OVN program in it ({@code ovsdb-server}, {@code ovsdb-tool},
     * {@code ovsdb-client}, {@code ovs-appctl}, {@code ovn-appctl}, {@code ovn-nbctl}, {@code ovn-sbctl},
     * {@code ovn-northd}, {@code ovn-trace}, and the chassis's {@code ovs-vswitchd}, {@code ovs-vsctl},
     * {@code ovs-ofctl}, {@code ovn-controller}) runs from this release; other commands are left alone.
     *
     * @param argv a command line naming its program without a directory
     * @return the command line to execute
     */
    public List<String> resolve(List<String> argv) {
        if (root.isEmpty() || argv.isEmpty() || !RELEASE_PROGRAMS.contains(argv.get(0))) {
            return argv;
        }
        return command(argv.get(0), argv.subList(1, argv.size()));
    }

    /**
     * The release's {@code ovn-nbctl --version}, e.g. {@code 25.03.0}.
     *
     * @return the OVN version
     */
    public String ovnVersion() {
        return lastWordOfFirstLine(Command.of(command("ovn-nbctl", "--version")).check());
    }

    /**
     * The release's {@code ovsdb-server --version}, e.g. {@code 3.5.0}.
     *
     * @return the OVS version
     */
    public String ovsVersion() {
        return lastWordOfFirstLine(Command.of(command("ovsdb-server", "--version")).check());
    }

    /**
     * Whether the OVN version is at least {@code major.minor}, for tests of behaviour that changed
     * between releases.
     *
     * @param major e.g. 25
     * @param minor e.g. 3
     * @return true when the release is that one or newer
     */
    public boolean ovnAtLeast(int major, int minor) {
        String[] v = ovnVersion().split("\\.");
        int ma = Integer.parseInt(v[0]);
        int mi = v.length > 1 ? Integer.parseInt(v[1]) : 0;
        return ma > major || (ma == major && mi >= minor);
    }

    /**
     * Copies one of the release's installed schemas ({@code ovn-nb.ovsschema}, {@code ovn-sb.ovsschema})
     * into {@code dir}; empty for the host, whose servers use the bundled schemas.
     *
     * @param fileName the schema file's name under {@code /usr/share/ovn}
     * @param dir an existing directory
     * @return the copy, or empty for the host
     */
    Optional<Path> copySchema(String fileName, Path dir) {
        if (root.isEmpty()) {
            return Optional.empty();
        }
        Path source = root.get().resolve("usr/share/ovn").resolve(fileName);
        if (!Files.isRegularFile(source)) {
            throw new TestkitException("release root " + root.get() + " has no " + source + " (is ovn-central installed in it?)");
        }
        try {
            return Optional.of(Files.copy(source, dir.resolve(fileName), StandardCopyOption.REPLACE_EXISTING));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String program(String name) {
        if (root.isEmpty()) {
            return name;
        }
        for (String d : PROGRAM_DIRS) {
            Optional<Path> p = inRoot(root.get(), root.get().resolve(d).resolve(name));
            if (p.isPresent()) {
                return p.get().toString();
            }
        }
        throw new TestkitException("release root " + root.get() + " has no " + name);
    }

    /**
     * Follows symbolic links as a chroot would: an absolute target ({@code /usr/sbin/ovs-vswitchd ->
     * /etc/alternatives/ovs-vswitchd}) means a path inside the root, never the machine's own file.
     */
    private static Optional<Path> inRoot(Path root, Path path) {
        Path p = path;
        for (int hops = 0; hops < 40; hops++) {
            if (Files.isSymbolicLink(p)) {
                try {
                    Path target = Files.readSymbolicLink(p);
                    p = target.isAbsolute() ? root.resolve(target.toString().substring(1)) : p.resolveSibling(target).normalize();
                } catch (IOException e) {
                    return Optional.empty();
                }
            } else {
                return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? Optional.of(p) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static String lastWordOfFirstLine(String text) {
        String first = text.lines().findFirst().orElse("").trim();
        return first.substring(first.lastIndexOf(' ') + 1);
    }

    @Override
    public String toString() {
        return root.map(r -> "release root " + r).orElse("host release");
    }
}
