package dev.ovnj.testkit;

import java.util.List;

/**
 * The topology of a project behind an EIP network, on a {@link Chassis} with real hosts: router
 * {@value #ROUTER}, a distributed router whose gateway port {@value #EXTERNAL_PORT} (172.30.0.1/24,
 * fd30::1/64, gateway chassis = the fixture's chassis) is on the EIP network, switch
 * {@value #EXTERNAL_SWITCH}; its port {@code lrp-ls1} (10.1.0.1/24, fd10::1/64) serves the project
 * switch {@value #PROJECT_SWITCH}. Backends {@code b1} (10.1.0.11, fd10::11) and {@code b2}
 * (10.1.0.12, fd10::12) are hosts on the project switch, each answering TCP and UDP on port
 * {@value #PORT} with its name; clients {@code c1} (172.30.0.100, fd30::100) and {@code c2}
 * (172.30.0.101, fd30::101) are hosts on the EIP network. A load balancer's VIP goes in the EIP
 * network (e.g. 172.30.0.10, {@link #vip4(int)}), where the router answers ARP and ND for it.
 *
 * <pre>{@code
 * EipTopology net = EipTopology.create(chassis);
 * // ovnj reconcile: routers [r1], switches [ls1], vip 172.30.0.10:80 -> 10.1.0.11:80, 10.1.0.12:80
 * net.client().requestUntil(Transport.TCP, "172.30.0.10", 80, Reply::answered, Duration.ofSeconds(30));
 * }</pre>
 */
public final class EipTopology {
    /** The project router. */
    public static final String ROUTER = "r1";
    /** The router's gateway port, on the EIP network. */
    public static final String EXTERNAL_PORT = "lrp-ext";
    /** The EIP network's switch. */
    public static final String EXTERNAL_SWITCH = "ext";
    /** The project switch, where the backends are. */
    public static final String PROJECT_SWITCH = "ls1";
    /** The port every backend serves from the start. */
    public static final int PORT = 80;

    private final Chassis chassis;
    private final List<Host> backends;
    private final Host client;
    private final Host outsider;

    private EipTopology(Chassis chassis, List<Host> backends, Host client, Host outsider) {
        this.chassis = chassis;
        this.backends = List.copyOf(backends);
        this.client = client;
        this.outsider = outsider;
    }

    /**
     * Writes the topology with {@code ovn-nbctl}, plugs the four hosts and starts the backends'
     * echo servers on port {@value #PORT}.
     *
     * @param chassis a chassis without this topology yet
     * @return the topology
     */
    public static EipTopology create(Chassis chassis) {
        Nbctl nbctl = chassis.nbctl();
        nbctl.run("lr-add", ROUTER,
                "--", "lrp-add", ROUTER, EXTERNAL_PORT, "0a:00:00:00:30:01", "172.30.0.1/24", "fd30::1/64",
                "--", "lrp-add", ROUTER, "lrp-ls1", "0a:00:00:00:10:01", "10.1.0.1/24", "fd10::1/64",
                "--", "lrp-set-gateway-chassis", EXTERNAL_PORT, chassis.name(), "10");
        nbctl.run("ls-add", EXTERNAL_SWITCH,
                "--", "lsp-add", EXTERNAL_SWITCH, "ext-r1", "--", "lsp-set-type", "ext-r1", "router",
                "--", "lsp-set-addresses", "ext-r1", "router", "--", "lsp-set-options", "ext-r1", "router-port=" + EXTERNAL_PORT,
                "--", "lsp-add", EXTERNAL_SWITCH, "c1", "--", "lsp-set-addresses", "c1", "0a:00:00:00:30:64 172.30.0.100 fd30::100",
                "--", "lsp-add", EXTERNAL_SWITCH, "c2", "--", "lsp-set-addresses", "c2", "0a:00:00:00:30:65 172.30.0.101 fd30::101");
        nbctl.run("ls-add", PROJECT_SWITCH,
                "--", "lsp-add", PROJECT_SWITCH, "ls1-r1", "--", "lsp-set-type", "ls1-r1", "router",
                "--", "lsp-set-addresses", "ls1-r1", "router", "--", "lsp-set-options", "ls1-r1", "router-port=lrp-ls1",
                "--", "lsp-add", PROJECT_SWITCH, "b1", "--", "lsp-set-addresses", "b1", "0a:00:00:00:10:0b 10.1.0.11 fd10::11",
                "--", "lsp-add", PROJECT_SWITCH, "b2", "--", "lsp-set-addresses", "b2", "0a:00:00:00:10:0c 10.1.0.12 fd10::12");
        Host b1 = chassis.host("b1").port("b1").mac("0a:00:00:00:10:0b").ipv4("10.1.0.11/24", "10.1.0.1").ipv6("fd10::11/64", "fd10::1").start();
        Host b2 = chassis.host("b2").port("b2").mac("0a:00:00:00:10:0c").ipv4("10.1.0.12/24", "10.1.0.1").ipv6("fd10::12/64", "fd10::1").start();
        Host c1 = chassis.host("c1").port("c1").mac("0a:00:00:00:30:64").ipv4("172.30.0.100/24", "172.30.0.1")
                .ipv6("fd30::100/64", "fd30::1").start();
        Host c2 = chassis.host("c2").port("c2").mac("0a:00:00:00:30:65").ipv4("172.30.0.101/24", "172.30.0.1")
                .ipv6("fd30::101/64", "fd30::1").start();
        b1.serve(PORT);
        b2.serve(PORT);
        return new EipTopology(chassis, List.of(b1, b2), c1, c2);
    }

    /**
     * An IPv4 address on the EIP network for a VIP.
     *
     * @param n the last octet, 2..99 (the router has .1, the clients .100 and .101)
     * @return e.g. {@code 172.30.0.10}
     */
    public static String vip4(int n) {
        return "172.30.0." + n;
    }

    /**
     * An IPv6 address on the EIP network for a VIP.
     *
     * @param n 2..99, as for {@link #vip4(int)}
     * @return e.g. {@code fd30::10}
     */
    public static String vip6(int n) {
        return "fd30::" + n;
    }

    /**
     * The chassis it runs on.
     *
     * @return the chassis
     */
    public Chassis chassis() {
        return chassis;
    }

    /**
     * The backends {@code b1} and {@code b2}, on the project switch.
     *
     * @return both
     */
    public List<Host> backends() {
        return backends;
    }

    /**
     * The client {@code c1} (172.30.0.100, fd30::100) on the EIP network.
     *
     * @return the client
     */
    public Host client() {
        return client;
    }

    /**
     * The second client {@code c2} (172.30.0.101, fd30::101) on the EIP network, e.g. outside a
     * VIP's source ranges.
     *
     * @return the client
     */
    public Host outsider() {
        return outsider;
    }
}
