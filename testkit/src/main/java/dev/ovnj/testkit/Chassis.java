package dev.ovnj.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real OVN data plane on one machine: the Northbound and Southbound {@code ovsdb-server}s with
 * {@code ovn-northd} between them, and one chassis &mdash; a local {@code Open_vSwitch} database,
 * {@code ovs-vswitchd} with the userspace datapath ({@code --disable-system}, {@code br-int} with
 * {@code datapath_type=netdev}, its own conntrack with NAT, no kernel module) and
 * {@code ovn-controller} &mdash; plus {@link Host}s: network namespaces joined to {@code br-int} by
 * veth pairs, bound to logical switch ports, that run {@link EchoServer}s and send requests.
 *
 * <p>{@code ovs-vswitchd} and {@code ovn-controller} run inside a network namespace of the chassis's
 * own, named {@code ovnj-<pid>-<n>} like every namespace it makes, so two test JVMs, a leftover of
 * a killed one (removed at the next start) or the machine's own Open vSwitch never collide. The
 * OVN databases listen on free loopback ports of the machine, where ovnj and {@code ovn-nbctl}
 * reach them; {@code ovn-controller} reaches the Southbound one by a unix socket. {@link #close()}
 * leaves nothing behind: no namespace, veth, process or file ({@link #leftovers()} says what is
 * left, for tests that check). It needs root, {@code ip netns}, {@code /dev/net/tun}, python3,
 * ethtool and the {@code openvswitch-switch} and {@code ovn-host} packages
 * ({@code scripts/install-ovs.sh}); {@link #unavailableReason()} says which is missing, for a skip.
 * The daemons come from the {@link OvnRelease#current() current release}.
 *
 * <pre>{@code
 * try (Chassis chassis = Chassis.start()) {
 *     chassis.nbctl().run("ls-add", "sw", "--", "lsp-add", "sw", "p1", "--", "lsp-set-addresses", "p1",
 *             "0a:00:00:00:00:01 10.0.0.1 fd00::1", "--", "lsp-add", "sw", "p2", "--", "lsp-set-addresses", "p2",
 *             "0a:00:00:00:00:02 10.0.0.2 fd00::2");
 *     Host server = chassis.host("server").port("p1").mac("0a:00:00:00:00:01")
 *             .ipv4("10.0.0.1/24", null).ipv6("fd00::1/64", null).start();
 *     Host client = chassis.host("client").port("p2").mac("0a:00:00:00:00:02").ipv4("10.0.0.2/24", null).start();
 *     server.serve(80);
 *     Reply r = client.request(Transport.TCP, "10.0.0.1", 80, Duration.ofSeconds(2)); // answered by server
 *     try (Prober p = client.probe(Transport.TCP, "10.0.0.1", 80, Duration.ofMillis(10), Duration.ofSeconds(1))) {
 *         // ... break something and repair it ...
 *         ProbeReport report = p.stop(); // report.blackout(): the longest run of failed requests
 *     }
 * }
 * }</pre>
 *
 * <p>A failed request checks that the daemons still run: a dead {@code ovs-vswitchd} (OVS 3.1's
 * userspace conntrack can die on an assertion) fails the test with its last {@code EMER} line
 * rather than a timeout ({@link #assertAlive()}).
 */
public final class Chassis implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Chassis.class);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern HOST_NAME = Pattern.compile("[a-z][a-z0-9]{0,11}");
    private static final String VSWITCH_SCHEMA = "usr/share/openvswitch/vswitch.ovsschema";

    private final String name;
    private final Path dir;
    private final OvnRelease release = OvnRelease.current();
    private final List<Host> hosts = new ArrayList<>();
    private final AtomicInteger interfaces = new AtomicInteger();
    private OvsdbServer northbound;
    private OvsdbServer southbound;
    private Northd northd;
    private OvsdbServer local;
    private DaemonProcess vswitchd;
    private DaemonProcess controller;
    private boolean closed;

    private Chassis(String name, Path dir) {
        this.name = name;
        this.dir = dir;
    }

    /**
     * Why a chassis cannot run on this machine, for a test to skip with; empty when it can.
     *
     * @return the reason, e.g. "not root (network namespaces need it)"
     */
    public static Optional<String> unavailableReason() {
        return Prerequisites.missing();
    }

    /**
     * Starts the databases, northd, ovs-vswitchd and ovn-controller, and waits until ovn-controller
     * has registered the chassis in the Southbound database.
     *
     * @return the running chassis
     * @throws TestkitException naming what is missing or which daemon failed, with its log
     */
    public static Chassis start() {
        unavailableReason().ifPresent(why -> {
            throw new TestkitException("cannot start a chassis: " + why);
        });
        Netns.reapOrphans();
        String name = Netns.PREFIX + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
        Path dir;
        try {
            dir = Files.createTempDirectory("ovnj-chassis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Chassis chassis = new Chassis(name, dir);
        try {
            chassis.launch();
        } catch (RuntimeException e) {
            String logs = chassis.logs();
            try {
                chassis.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw new TestkitException("the chassis did not start: " + e.getMessage() + "\n" + logs, e);
        }
        LOG.info("chassis {} started ({}, ovs-vswitchd pid {}, ovn-controller pid {}, Northbound {})", name, chassis.release,
                chassis.vswitchd.pid(), chassis.controller.pid(), chassis.northbound.remote());
        return chassis;
    }

    private void launch() {
        northbound = OvsdbServer.builder().inMemory(false).start();
        southbound = OvsdbServer.builder().inMemory(false).schema(Schemas.ovnSouthbound(dir)).unixSocket(true).start();
        northd = Northd.start(northbound, southbound);
        Path schema = release.root().orElse(Path.of("/")).resolve(VSWITCH_SCHEMA);
        local = OvsdbServer.builder().inMemory(false).schema(schema).unixSocket(true).directory(dir.resolve("conf")).start();
        copyAgent();
        Netns.add(name);
        vsctl("--no-wait", "init");
        vsctl("--no-wait", "set", "Open_vSwitch", ".", "external_ids:system-id=" + name,
                "external_ids:ovn-remote=" + southbound.unixRemote().orElseThrow(),
                "external_ids:ovn-encap-type=geneve", "external_ids:ovn-encap-ip=127.0.0.1",
                "external_ids:ovn-bridge-datapath-type=netdev");
        vsctl("--no-wait", "add-br", "br-int", "--", "set", "Bridge", "br-int", "datapath_type=netdev", "fail-mode=secure",
                "other-config:disable-in-band=true");

        vswitchd = daemon("ovs-vswitchd", "vswitchd", "ovs-vswitchd.log", List.of(localRemote(), "--disable-system",
                "--unixctl=" + dir.resolve("vswitchd/ovs-vswitchd.ctl")));
        if (!vswitchd.awaitReady(START_TIMEOUT, 20, () -> Files.exists(vswitchdControlSocket()))) {
            throw new TestkitException("ovs-vswitchd did not open its control socket within " + START_TIMEOUT);
        }
        // Without --no-wait, ovs-vsctl returns once ovs-vswitchd has applied the configuration.
        vsctl("--timeout=" + START_TIMEOUT.toSeconds(), "set", "Open_vSwitch", ".", "external_ids:ovnj-chassis=" + name);

        // ovn-controller 23.03 has no --unixctl: its control socket goes to OVN_RUNDIR as ovn-controller.PID.ctl.
        controller = daemon("ovn-controller", "controller", "ovn-controller.log", List.of(localRemote()));
        Command.Result registered = Command.of("ovn-sbctl", "--db=" + southbound.remote(),
                "--timeout=" + START_TIMEOUT.toSeconds(), "wait-until", "Chassis", name).timeout(START_TIMEOUT.plusSeconds(10)).run();
        assertAlive();
        if (!registered.ok()) {
            throw new TestkitException("ovn-controller did not register chassis " + name + " within " + START_TIMEOUT
                    + ": " + registered.stderr().trim());
        }
    }

    private DaemonProcess daemon(String program, String subdir, String logFile, List<String> args) {
        Path d = dir.resolve(subdir);
        try {
            Files.createDirectories(d);
            Files.createDirectories(runDirectory());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DaemonProcess daemon = new DaemonProcess(program, d, logFile, "ovnj-" + program + "-reaper");
        List<String> argv = new ArrayList<>(List.of("env", "OVS_RUNDIR=" + runDirectory(), "OVS_LOGDIR=" + d,
                "OVS_DBDIR=" + d, "OVN_RUNDIR=" + d, "OVN_LOGDIR=" + d, "OVN_DBDIR=" + d));
        List<String> daemonArgs = new ArrayList<>(args);
        daemonArgs.addAll(List.of("--log-file=" + d.resolve(logFile), "-vconsole:emer", "-vfile:info", "--no-chdir",
                "--pidfile=" + d.resolve(program + ".pid")));
        argv.addAll(release.command(program, daemonArgs));
        daemon.launch(Netns.exec(name, argv), " (scripts/install-ovs.sh installs openvswitch-switch and ovn-host)");
        return daemon;
    }

    private Path runDirectory() {
        return dir.resolve("run");
    }

    private String localRemote() {
        return local.unixRemote().orElseThrow();
    }

    private Path vswitchdControlSocket() {
        return dir.resolve("vswitchd/ovs-vswitchd.ctl");
    }

    private Path agentScript() {
        return dir.resolve("netagent.py");
    }

    private void copyAgent() {
        try (InputStream in = Chassis.class.getResourceAsStream("netagent.py")) {
            if (in == null) {
                throw new TestkitException("netagent.py missing from the testkit jar");
            }
            Files.copy(in, agentScript(), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The command line running the traffic agent in a namespace. */
    List<String> agent(String namespace, String... args) {
        List<String> argv = new ArrayList<>(List.of("python3", "-u", agentScript().toString()));
        argv.addAll(List.of(args));
        return Netns.exec(namespace, argv);
    }

    /**
     * The chassis's name: its {@code system-id}, the Southbound {@code Chassis} row's name, what a
     * gateway chassis names (e.g. {@code ovn-nbctl lrp-set-gateway-chassis LRP NAME}), and its
     * network namespace.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The OVN_Northbound server, for ovnj and {@code ovn-nbctl}.
     *
     * @return the server
     */
    public OvsdbServer northbound() {
        return northbound;
    }

    /**
     * The OVN_Southbound server.
     *
     * @return the server
     */
    public OvsdbServer southbound() {
        return southbound;
    }

    /**
     * The northd between them.
     *
     * @return northd
     */
    public Northd northd() {
        return northd;
    }

    /**
     * An {@code ovn-nbctl} for the Northbound server.
     *
     * @return the runner
     */
    public Nbctl nbctl() {
        return Nbctl.of(northbound);
    }

    /**
     * An {@code ovn-sbctl} for the Southbound server.
     *
     * @return the runner
     */
    public Sbctl sbctl() {
        return Sbctl.of(southbound);
    }

    /**
     * Runs {@code ovs-vsctl} against the chassis's {@code Open_vSwitch} database.
     *
     * @param args the command and its arguments
     * @return what it printed
     */
    public String vsctl(String... args) {
        List<String> argv = new ArrayList<>(List.of("ovs-vsctl", "--db=" + localRemote()));
        argv.addAll(List.of(args));
        return Command.of(argv).timeout(Duration.ofSeconds(60)).check();
    }

    /**
     * Runs {@code ovs-appctl} against ovs-vswitchd, e.g. {@code dpctl/dump-conntrack} or
     * {@code ofproto/trace br-int in_port=...,tcp,...}.
     *
     * @param args the command and its arguments
     * @return what it printed
     */
    public String vswitchdAppctl(String... args) {
        return DaemonProcess.appctl("ovs-appctl", vswitchdControlSocket(), args);
    }

    /**
     * Runs {@code ovn-appctl} against ovn-controller, e.g. {@code connection-status}.
     *
     * @param args the command and its arguments
     * @return what it printed
     */
    public String controllerAppctl(String... args) {
        return DaemonProcess.appctl("ovn-appctl", dir.resolve("controller/ovn-controller." + controller.pid() + ".ctl"), args);
    }

    /**
     * The OpenFlow flows of {@code br-int} ({@code ovs-ofctl dump-flows br-int}).
     *
     * @return the flows
     */
    public String dumpFlows() {
        return Command.of("ovs-ofctl", "dump-flows", "unix:" + runDirectory().resolve("br-int.mgmt"))
                .timeout(Duration.ofSeconds(60)).check();
    }

    /**
     * Fails when ovs-vswitchd or ovn-controller has died, quoting its last {@code EMER} line (or its
     * last words on stderr), so that a crashed data plane is reported as such, not as lost packets.
     *
     * @throws TestkitException when a daemon is dead
     */
    public void assertAlive() {
        assertAlive("ovs-vswitchd", vswitchd);
        assertAlive("ovn-controller", controller);
    }

    private synchronized void assertAlive(String program, DaemonProcess d) {
        if (d != null && !d.isRunning() && !closed) {
            throw new TestkitException(program + " of chassis " + name + " died (" + d.exitDescription().orElse("ended")
                    + "): " + lastWords(d.log()));
        }
    }

    /** The last EMER line (an assertion's message), else the last line that is not the log's opening. */
    private static String lastWords(String log) {
        List<String> lines = log.lines().toList();
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).contains("|EMER|")) {
                return lines.get(i);
            }
        }
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (!lines.get(i).contains("|vlog|INFO|opened log file")) {
                return "no EMER line; its log ends with: " + lines.get(i);
            }
        }
        return "no log";
    }

    /**
     * Starts describing a host on this chassis.
     *
     * @param hostName lower-case letters and digits, at most 12, starting with a letter; what its
     *        echo servers answer with
     * @return a builder; {@link HostBuilder#start()} makes the host
     */
    public HostBuilder host(String hostName) {
        if (!HOST_NAME.matcher(hostName).matches()) {
            throw new IllegalArgumentException("host name \"" + hostName + "\" must match " + HOST_NAME);
        }
        return new HostBuilder(hostName);
    }

    synchronized Host plug(HostBuilder b) {
        if (closed) {
            throw new TestkitException("chassis " + name + " is closed");
        }
        String ns = name + "-" + b.hostName;
        String veth = "veth" + interfaces.incrementAndGet();
        Netns.add(ns);
        Host host = new Host(this, b.hostName, ns, b.port, veth, b.ipv4.map(Chassis::address), b.ipv6.map(Chassis::address));
        hosts.add(host);
        Netns.ip("link", "add", veth, "netns", name, "type", "veth", "peer", "name", "eth0", "netns", ns);
        Netns.ip("-n", ns, "link", "set", "eth0", "address", b.mac);
        b.ipv4.ifPresent(a -> Netns.ip("-n", ns, "addr", "add", a, "dev", "eth0"));
        b.ipv6.ifPresent(a -> Netns.ip("-n", ns, "-6", "addr", "add", a, "dev", "eth0", "nodad"));
        Netns.ip("-n", ns, "link", "set", "eth0", "up");
        Netns.ip("-n", name, "link", "set", veth, "up");
        b.gateway4.ifPresent(g -> Netns.ip("-n", ns, "route", "add", "default", "via", g));
        b.gateway6.ifPresent(g -> Netns.ip("-n", ns, "-6", "route", "add", "default", "via", g));
        // The userspace datapath drops TCP/UDP whose checksum a veth left to offload: compute it on both ends.
        Netns.run(ns, "ethtool", "-K", "eth0", "tx", "off");
        Netns.run(name, "ethtool", "-K", veth, "tx", "off");
        vsctl("add-port", "br-int", veth, "--", "set", "Interface", veth, "external_ids:iface-id=" + b.port);
        Command.Result up = Command.of("ovn-nbctl", "--db=" + northbound.remote(), "--timeout=" + START_TIMEOUT.toSeconds(),
                "wait-until", "Logical_Switch_Port", b.port, "up=true").timeout(START_TIMEOUT.plusSeconds(10)).run();
        assertAlive();
        if (!up.ok()) {
            throw new TestkitException("logical switch port " + b.port + " of host " + b.hostName + " did not come up within "
                    + START_TIMEOUT + " (does the port exist with addresses?): " + up.stderr().trim());
        }
        LOG.info("host {} plugged into chassis {} on port {} ({})", b.hostName, name, b.port, host);
        return host;
    }

    synchronized void unplug(Host host) {
        hosts.remove(host);
        if (vswitchd != null && vswitchd.isRunning()) {
            Command.of("ovs-vsctl", "--db=" + localRemote(), "--if-exists", "del-port", "br-int", host.chassisSideInterface())
                    .timeout(Duration.ofSeconds(30)).run();
        }
    }

    private static String address(String cidr) {
        int slash = cidr.indexOf('/');
        return slash < 0 ? cidr : cidr.substring(0, slash);
    }

    /**
     * Every daemon's log, each under a heading, for a failing test's output.
     *
     * @return the logs
     */
    public String logs() {
        StringBuilder sb = new StringBuilder();
        appendLog(sb, "ovn-northd", northd == null ? null : northd.log());
        appendLog(sb, "ovs-vswitchd", vswitchd == null ? null : vswitchd.log());
        appendLog(sb, "ovn-controller", controller == null ? null : controller.log());
        appendLog(sb, "Northbound ovsdb-server", northbound == null ? null : northbound.log());
        appendLog(sb, "Southbound ovsdb-server", southbound == null ? null : southbound.log());
        return sb.toString();
    }

    private static void appendLog(StringBuilder sb, String title, String log) {
        if (log != null) {
            sb.append("===== ").append(title).append(" =====\n").append(log);
        }
    }

    /**
     * What of this chassis is still on the machine: its namespaces, processes running from its
     * directory, the directory itself. Empty after {@link #close()}, which the tests check.
     *
     * @return one line per leftover
     */
    public List<String> leftovers() {
        List<String> left = new ArrayList<>();
        for (String ns : Netns.list()) {
            if (ns.equals(name) || ns.startsWith(name + "-")) {
                left.add("network namespace " + ns);
            }
        }
        String marker = dir.toString();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                try {
                    String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
                    if (cmdline.contains(marker)) {
                        left.add("process " + p.getFileName() + ": " + cmdline.trim());
                    }
                } catch (IOException gone) {
                    // The process ended while we looked.
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (Files.exists(dir)) {
            left.add("directory " + dir);
        }
        return left;
    }

    /**
     * Removes the hosts, stops ovn-controller and ovs-vswitchd ({@code exit --cleanup}), the
     * databases and northd, and deletes the namespace and the files.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<RuntimeException> failures = new ArrayList<>();
        for (Host h : List.copyOf(hosts)) {
            attempt(failures, h::close);
        }
        if (controller != null) {
            attempt(failures, () -> {
                controller.kill();
                controller.close(false);
            });
        }
        if (vswitchd != null) {
            attempt(failures, () -> {
                if (vswitchd.isRunning()) {
                    Command.of("ovs-appctl", "-t", vswitchdControlSocket().toString(), "exit", "--cleanup")
                            .timeout(Duration.ofSeconds(10)).run();
                }
                vswitchd.stop();
                vswitchd.close(false);
            });
        }
        for (AutoCloseable c : new AutoCloseable[] {local, northd, southbound, northbound}) {
            if (c != null) {
                attempt(failures, () -> {
                    try {
                        c.close();
                    } catch (Exception e) {
                        throw new TestkitException("cannot close " + c + ": " + e.getMessage(), e);
                    }
                });
            }
        }
        attempt(failures, () -> Netns.delete(name));
        attempt(failures, () -> OvsdbServer.deleteTree(dir));
        LOG.info("chassis {} closed", name);
        if (!failures.isEmpty()) {
            TestkitException e = new TestkitException("closing chassis " + name + " failed: " + failures.get(0).getMessage());
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    private static void attempt(List<RuntimeException> failures, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }

    @Override
    public String toString() {
        return "Chassis[" + name + ", " + release + (closed ? ", closed" : "") + "]";
    }

    /** Describes a {@link Host}: its logical switch port, MAC address, addresses and gateways. */
    public final class HostBuilder {
        private final String hostName;
        private String port;
        private String mac;
        private Optional<String> ipv4 = Optional.empty();
        private Optional<String> gateway4 = Optional.empty();
        private Optional<String> ipv6 = Optional.empty();
        private Optional<String> gateway6 = Optional.empty();

        private HostBuilder(String hostName) {
            this.hostName = hostName;
        }

        /**
         * The logical switch port to bind; it must exist with these addresses
         * ({@code lsp-set-addresses}), so that it comes up.
         *
         * @param logicalSwitchPort the port's name
         * @return this builder
         */
        public HostBuilder port(String logicalSwitchPort) {
            this.port = logicalSwitchPort;
            return this;
        }

        /**
         * The MAC address of the host's {@code eth0}, the port's.
         *
         * @param address e.g. {@code 0a:00:00:00:00:01}
         * @return this builder
         */
        public HostBuilder mac(String address) {
            this.mac = address;
            return this;
        }

        /**
         * The IPv4 address and, when not null, the default gateway.
         *
         * @param cidr e.g. {@code 10.0.0.11/24}
         * @param gateway e.g. {@code 10.0.0.1}, or null for none
         * @return this builder
         */
        public HostBuilder ipv4(String cidr, String gateway) {
            this.ipv4 = Optional.of(cidr);
            this.gateway4 = Optional.ofNullable(gateway);
            return this;
        }

        /**
         * The IPv6 address and, when not null, the default gateway.
         *
         * @param cidr e.g. {@code fd00::11/64}
         * @param gateway e.g. {@code fd00::1}, or null for none
         * @return this builder
         */
        public HostBuilder ipv6(String cidr, String gateway) {
            this.ipv6 = Optional.of(cidr);
            this.gateway6 = Optional.ofNullable(gateway);
            return this;
        }

        /**
         * Makes the namespace and veth pair, plugs it into {@code br-int} and waits until the
         * logical switch port is up (ovn-controller bound it).
         *
         * @return the host
         */
        public Host start() {
            if (port == null || mac == null || (ipv4.isEmpty() && ipv6.isEmpty())) {
                throw new IllegalStateException("host " + hostName + " needs a port, a MAC address and an IPv4 or IPv6 address");
            }
            return plug(this);
        }
    }
}
