package dev.ovnj.testkit;

/**
 * The topology a test of OVN load balancing starts from, written with {@code ovn-nbctl} and
 * {@code ovn-sbctl} into an {@link OvnCentral}: router {@value #ROUTER} with an external port
 * {@value #EXTERNAL_PORT} (172.16.0.1/24) and an internal one, {@code lrp-int} (10.0.0.1/24), to
 * switch {@value #SWITCH}, whose ports {@code web1} ({@value #BACKEND1}) and {@code web2}
 * ({@value #BACKEND2}) are bound to a chassis, so that OVN sees the backends as present. No
 * {@code ovn-controller} runs: the chassis and the bindings are made with {@code ovn-sbctl}.
 *
 * <pre>{@code
 * BackendTopology.of(ovn).withGateway().create();   // VIPs in 172.16.0.0/24 on lr0 and ls-int
 * }</pre>
 */
public final class BackendTopology {
    /** The router. */
    public static final String ROUTER = "lr0";
    /** The router's external port, 172.16.0.1/24, where VIPs live. */
    public static final String EXTERNAL_PORT = "lrp-ext";
    /** The switch of the backends. */
    public static final String SWITCH = "ls-int";
    /** The address of the first backend's port, {@code web1}. */
    public static final String BACKEND1 = "10.0.0.2";
    /** The address of the second backend's port, {@code web2}. */
    public static final String BACKEND2 = "10.0.0.3";

    private final OvnCentral ovn;
    private final boolean gateway;
    private final boolean subnet;

    private BackendTopology(OvnCentral ovn, boolean gateway, boolean subnet) {
        this.ovn = ovn;
        this.gateway = gateway;
        this.subnet = subnet;
    }

    /**
     * The topology without a gateway: the backends are bound to chassis {@code hv1}.
     *
     * @param ovn where to write it
     * @return the topology, not yet written
     */
    public static BackendTopology of(OvnCentral ovn) {
        return new BackendTopology(ovn, false, false);
    }

    /**
     * With a gateway: the external port's gateway chassis is {@code gw1}, which also holds the
     * backends and the bound {@code cr-lrp-ext} port, so traffic from outside reaches the VIPs
     * (and {@code ovn-trace} from the external port works).
     *
     * @return a copy with a gateway
     */
    public BackendTopology withGateway() {
        return new BackendTopology(ovn, true, subnet);
    }

    /**
     * With the switch's {@code other_config:subnet} set to 10.0.0.0/24, as a switch managed by
     * IPAM has it.
     *
     * @return a copy with the subnet
     */
    public BackendTopology withSwitchSubnet() {
        return new BackendTopology(ovn, gateway, true);
    }

    /**
     * Writes the topology and waits until {@code ovn-northd} has made the port bindings, then binds
     * them.
     */
    public void create() {
        String chassis = gateway ? "gw1" : "hv1";
        Nbctl nbctl = ovn.nbctl();
        nbctl.run("lr-add", ROUTER,
                "--", "lrp-add", ROUTER, EXTERNAL_PORT, "00:00:00:00:01:01", "172.16.0.1/24",
                "--", "lrp-add", ROUTER, "lrp-int", "00:00:00:00:01:02", "10.0.0.1/24");
        if (gateway) {
            nbctl.run("lrp-set-gateway-chassis", EXTERNAL_PORT, chassis, "10");
        }
        nbctl.run("ls-add", SWITCH,
                "--", "lsp-add", SWITCH, "int-lr0", "--", "lsp-set-type", "int-lr0", "router",
                "--", "lsp-set-addresses", "int-lr0", "router", "--", "lsp-set-options", "int-lr0", "router-port=lrp-int",
                "--", "lsp-add", SWITCH, "web1", "--", "lsp-set-addresses", "web1", "00:00:00:00:02:01 " + BACKEND1,
                "--", "lsp-add", SWITCH, "web2", "--", "lsp-set-addresses", "web2", "00:00:00:00:02:02 " + BACKEND2);
        if (subnet) {
            nbctl.run("set", "logical_switch", SWITCH, "other_config:subnet=10.0.0.0/24");
        }
        Sbctl sbctl = ovn.sbctl();
        sbctl.addChassis(chassis, "127.0.0.1");
        ovn.sync();
        if (gateway) {
            sbctl.run("lsp-bind", "cr-" + EXTERNAL_PORT, chassis, "--", "lsp-bind", "web1", chassis, "--", "lsp-bind", "web2", chassis);
        } else {
            sbctl.run("lsp-bind", "web1", chassis, "--", "lsp-bind", "web2", chassis);
        }
    }
}
